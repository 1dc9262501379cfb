import { Transform } from "node:stream";

/**
 * React 18.3.1's renderToPipeableStream writes stray NUL bytes into its output when long
 * multibyte text (Chinese) crosses its internal 2 KB buffer (fixed in React 19). The bytes are
 * extra, never in place of content, and a page has no NUL of its own (HTML parsers turn one into
 * U+FFFD anyway), so dropping every NUL restores exactly what renderToString would have written.
 * Chunks without one (most) pass untouched.
 */
export function dropNulBytes(): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      done(null, chunk.indexOf(0) === -1 ? chunk : chunk.filter((byte) => byte !== 0));
    },
  });
}
