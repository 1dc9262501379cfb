import type { Readable } from "node:stream";
import { createReadableStreamFromReadable } from "@remix-run/node";
import type { Dispatcher } from "undici";
import { log } from "#app/services/observability.server";

/**
 * A platform body (an export, a recording) relayed to the browser as it arrives. A browser that
 * leaves early cancels it, which destroys the upstream read with an AbortError: expected, so it is
 * listened for (an unheard stream error would be an uncaught exception). Not Readable.toWeb: on
 * Node 20 it still enqueues after a cancel, another uncaught error.
 */
export function relayBody(body: Readable): ReadableStream<Uint8Array> {
  body.on("error", (error: Error) => {
    if (error.name !== "AbortError") log.warn({ event: "relayed body failed", err: error });
  });
  return createReadableStreamFromReadable(body);
}

/** A platform download (an export, a spreadsheet) passed through: its type and file name kept, never cached. */
export function relayDownload(upstream: Dispatcher.ResponseData): Response {
  const headers = new Headers({ "Cache-Control": "no-store" });
  for (const name of ["content-type", "content-disposition"]) {
    const value = upstream.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  return new Response(relayBody(upstream.body), { headers });
}
