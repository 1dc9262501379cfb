import type { ActionFunctionArgs, EntryContext, HandleDataRequestFunction, LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { wantsHydration } from "#app/lib/handle";
import { NonceContext } from "#app/lib/nonce";
import { dropNulBytes } from "#app/server/nul-bytes.server";
import { applySecurityHeaders, createNonce } from "#app/server/security-headers.server";
import { errorPageFailureHtml } from "#app/components/error-page-failure";
import { installChineseValidationMessages } from "#common/zod-chinese";
import { log, withRequest } from "#app/services/observability.server";

// server.mjs runs the console through these (request ids, logs, metrics, readiness, draining).
export {
  answerReadiness,
  flushTelemetry,
  logFailure,
  logRefusal,
  observeRequest,
  serveMetrics,
  startDraining,
  startTracing,
} from "#app/server/operations.server";

// Validation messages in Chinese wherever a schema gives none of its own (forms, queries, islands).
installChineseValidationMessages();

const ABORT_DELAY_MS = 5_000;

export default function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, remixContext: EntryContext) {
  const nonce = createNonce();
  const page = (
    <NonceContext.Provider value={nonce}>
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} nonce={nonce} />
    </NonceContext.Provider>
  );
  const matches = remixContext.staticHandlerContext.matches.map((match) => ({ handle: remixContext.routeModules[match.route.id]?.handle }));
  if (!wantsHydration(matches)) {
    // No scripts read the loader data hand-off, so it is neither rendered nor (patches/README.md) encoded.
    Object.defineProperty(remixContext, "serverHandoffStream", { value: undefined });
    return renderWhole(page, responseStatusCode, responseHeaders, nonce);
  }

  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(page, {
      nonce,
      [waitForAll ? "onAllReady" : "onShellReady"]() {
        shellRendered = true;
        const body = dropNulBytes();
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        applySecurityHeaders(responseHeaders, nonce);
        resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
        pipe(body);
      },
      onShellError(error: unknown) {
        resolve(failedPage(error, nonce));
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) log.error(withRequest({ event: "render failed", err: error }));
      },
    });
    setTimeout(abort, ABORT_DELAY_MS + 1_000);
    void reject;
  });
}

/**
 * A page without JavaScript has all its data before it renders (nothing is deferred), so it is
 * rendered in one piece and sent as one string: streaming it through Node and web streams cost
 * more CPU than rendering it (bench/RESULTS.md, SSR section).
 */
function renderWhole(page: JSX.Element, status: number, headers: Headers, nonce: string): Response {
  let html: string;
  try {
    html = `<!DOCTYPE html>${renderToString(page)}`;
  } catch (error) {
    return failedPage(error, nonce);
  }
  headers.set("Content-Type", "text/html; charset=utf-8");
  applySecurityHeaders(headers, nonce);
  // As bytes: a string body is first scanned character by character for lone surrogates.
  const body = Buffer.from(html);
  headers.set("Content-Length", String(body.length));
  return new Response(body, { headers, status });
}

/** The page, and then its error page, failed to render: answer with a page that cannot fail. */
function failedPage(error: unknown, nonce: string): Response {
  log.error(withRequest({ event: "error page failed to render", err: error }));
  const headers = new Headers({ "Content-Type": "text/html; charset=utf-8" });
  applySecurityHeaders(headers, nonce);
  return new Response(errorPageFailureHtml(error), { status: 500, headers });
}

export const handleDataRequest: HandleDataRequestFunction = (response) => {
  applySecurityHeaders(response.headers);
  return response;
};

/** Logs what went wrong on the server; the browser only ever sees the normalised message. */
export function handleError(error: unknown, { request }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (request.signal.aborted) return;
  log.error(withRequest({ event: "request failed", method: request.method, path: new URL(request.url).pathname, err: error }));
}
