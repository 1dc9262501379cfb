import { describe, expect, it } from "vitest";
import { randomText } from "./random-bytes";

describe("randomText", () => {
  it("gives the asked number of bytes, never the same bytes twice, across many refills of the pool", () => {
    // 24-byte request ids: 4096 is no multiple of 24, so ids meet the pool's end and its refill.
    const ids = Array.from({ length: 2_000 }, () => randomText(24, "hex"));
    expect(ids.every((id) => /^[0-9a-f]{48}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // No id is a slice of the next (the pool moves on): their 16-byte halves are all distinct too.
    const halves = ids.flatMap((id) => [id.slice(0, 32), id.slice(16, 48)]);
    expect(new Set(halves).size).toBe(halves.length);
  });

  it("spreads its bytes over every value (a pool left unfilled would be zeros)", () => {
    const bytes = Buffer.concat(Array.from({ length: 512 }, () => Buffer.from(randomText(16, "base64"), "base64")));
    expect(bytes.length).toBe(8_192);
    const counts = new Array(256).fill(0);
    for (const byte of bytes) counts[byte] += 1;
    // 8,192 bytes: each value about 32 times; none missing, none near a quarter of them.
    expect(Math.min(...counts)).toBeGreaterThan(5);
    expect(Math.max(...counts)).toBeLessThan(100);
  });

  it("refuses more than the pool holds", () => {
    expect(() => randomText(5_000, "hex")).toThrow(RangeError);
  });
});
