import { randomFillSync } from "node:crypto";

/**
 * Random bytes for what every request needs (its id, its page's CSP nonce), taken from a pool
 * filled by the system's CSPRNG a few kilobytes at a time, as Node does for randomUUID: one
 * randomBytes call per id cost more than the id's whole use (bench/RESULTS.md, the list page's
 * CPU). The bytes are as unpredictable; each is handed out once.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

/** `count` fresh random bytes (at most the pool's size) as text in `encoding`. */
export function randomText(count: number, encoding: "hex" | "base64"): string {
  if (count > POOL_BYTES) throw new RangeError(`at most ${POOL_BYTES} random bytes at a time`);
  if (offset + count > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const text = pool.toString(encoding, offset, offset + count);
  offset += count;
  return text;
}
