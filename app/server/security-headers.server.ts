import { randomText } from "#common/random-bytes";

export function createNonce(): string {
  return randomText(16, "base64");
}

/** The SIP server's WebSocket the softphone registers on (decision 036), if the platform has one. */
function sipOrigin(): string {
  const url = process.env.VOICE_SIP_WS_URL;
  return url ? ` ${new URL(url).origin.replace(/^http/, "ws")}` : "";
}

/**
 * The Content-Security-Policy of every page: scripts only with this response's nonce (and what
 * they load), no plugins, no <base>, never framed. Styles allow inline attributes because
 * PrimeReact positions overlays with them.
 */
export function contentSecurityPolicy(nonce: string, dev = process.env.NODE_ENV === "development"): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "media-src 'self' blob:",
    `connect-src 'self'${dev ? " ws: wss:" : sipOrigin()}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join("; ");
}

/** Headers every console response carries; HSTS only in production (it pins https). */
export function applySecurityHeaders(headers: Headers, nonce?: string): void {
  if (nonce) headers.set("Content-Security-Policy", contentSecurityPolicy(nonce));
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "DENY");
  if (process.env.NODE_ENV === "production") {
    headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  }
}
