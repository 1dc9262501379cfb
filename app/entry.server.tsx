import { PassThrough } from "node:stream";
import type { ActionFunctionArgs, EntryContext, HandleDataRequestFunction, LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { NonceContext } from "./lib/nonce";
import { applySecurityHeaders, createNonce } from "./security-headers.server";
import { errorPageFailureHtml } from "./components/error-page-failure";

const ABORT_DELAY_MS = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  const nonce = createNonce();
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          applySecurityHeaders(responseHeaders, nonce);
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          // The page, and then its error page, failed to render: answer with a page that cannot fail.
          console.error("[console] error page failed to render", error);
          const headers = new Headers({ "Content-Type": "text/html; charset=utf-8" });
          applySecurityHeaders(headers, nonce);
          resolve(new Response(errorPageFailureHtml(error), { status: 500, headers }));
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error("[console] render error", error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY_MS + 1_000);
    void reject;
  });
}

export const handleDataRequest: HandleDataRequestFunction = (response) => {
  applySecurityHeaders(response.headers);
  return response;
};

/** Logs what went wrong on the server; the browser only ever sees the normalised message. */
export function handleError(error: unknown, { request }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (request.signal.aborted) return;
  console.error(`[console] ${request.method} ${new URL(request.url).pathname}`, error);
}
