import type { Readable } from "node:stream";
import { createReadableStreamFromReadable } from "@remix-run/node";

/**
 * A platform body (an export, a recording) relayed to the browser as it arrives. A browser that
 * leaves early cancels it, which destroys the upstream read with an AbortError: expected, so it is
 * listened for (an unheard stream error would be an uncaught exception). Not Readable.toWeb: on
 * Node 20 it still enqueues after a cancel, another uncaught error.
 */
export function relayBody(body: Readable): ReadableStream<Uint8Array> {
  body.on("error", (error: Error) => {
    if (error.name !== "AbortError") console.error("[console] relayed body failed", error);
  });
  return createReadableStreamFromReadable(body);
}
