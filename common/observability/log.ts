import pino, { type DestinationStream, type LoggerOptions } from "pino";

/**
 * The JSON log lines of both processes (decision 038): one line per request and per notable
 * event, written asynchronously (a request never waits for its line), to stdout or to LOG_FILE.
 * LOG_LEVEL sets the level (`silent` turns logging off, as the tests do).
 *
 * Nothing secret reaches a line, in two layers: fields that hold secrets are censored by name
 * (REDACTED_PATHS), and every line is scrubbed on its way out (`scrubLine`) of bearer tokens and
 * whole phone numbers, wherever a message or an error happened to carry them.
 */
export const REDACTED_PATHS = [
  "password",
  "*.password",
  "token",
  "*.token",
  "accessToken",
  "*.accessToken",
  "authorization",
  "*.authorization",
  "cookie",
  "*.cookie",
  "*.headers.cookie",
  "*.headers.authorization",
  '*.headers["set-cookie"]',
  "secret",
  "*.secret",
  "clientSecret",
  "*.clientSecret",
];

/** Runs of 7 or more digits (a phone number, with or without country code): only the last 4 are kept. */
const PHONE = /(?<![\w.])\+?\d{3,}(\d{4})(?![\w.])/g;
const BEARER = /\b(Bearer|Basic)\s+[\w\-.~+/=]+/gi;

export function scrubLine(line: string): string {
  return line.replace(BEARER, "$1 [redacted]").replace(PHONE, (whole, last4: string) => (whole.length >= 7 ? `****${last4}` : whole));
}

export function logOptions(service: string, env: Record<string, string | undefined> = process.env): LoggerOptions {
  return {
    level: env.LOG_LEVEL || "info",
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    formatters: { level: (label) => ({ level: label }) },
    hooks: { streamWrite: scrubLine },
  };
}

/**
 * Lines are gathered up to LOG_BATCH_BYTES (about 20 request lines) before one write, and what is
 * gathered is written at least every LOG_FLUSH_MS: a write a line was one thread-pool round trip
 * per request, the largest part of the line's cost (bench/RESULTS.md, the list page's CPU).
 */
const LOG_BATCH_BYTES = 4096;
const LOG_FLUSH_MS = 1000;

/** Where lines go: LOG_FILE (appended, e.g. for a test to read) or stdout; asynchronous either way. */
export function logDestination(env: Record<string, string | undefined> = process.env): DestinationStream {
  // What is still gathered when the process exits is written then: pino flushes its destination on exit.
  return pino.destination({
    dest: env.LOG_FILE || 1,
    sync: false,
    mkdir: true,
    append: true,
    minLength: LOG_BATCH_BYTES,
    periodicFlush: LOG_FLUSH_MS,
  });
}

export function createLogger(service: string, env: Record<string, string | undefined> = process.env) {
  return pino(logOptions(service, env), logDestination(env));
}
