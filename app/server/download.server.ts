import type { Dispatcher } from "undici";
import { relayBody } from "#app/server/relay.server";

/** Passes an upstream CSV stream through as a download, without holding it in memory. */
export function streamDownload(upstream: Dispatcher.ResponseData, fileName: string): Response {
  return new Response(relayBody(upstream.body), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    },
  });
}
