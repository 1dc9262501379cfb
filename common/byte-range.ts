/**
 * A single HTTP byte range (RFC 9110 §14.1.2) of a file of `size` bytes: `bytes=a-b`, `bytes=a-`
 * or `bytes=-n`. Null when there is no Range header or it asks for several ranges (the whole file
 * is then sent, as the RFC allows); "unsatisfiable" when it lies outside the file.
 */
export function byteRange(header: string | null | undefined, size: number): { start: number; end: number } | "unsatisfiable" | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}
