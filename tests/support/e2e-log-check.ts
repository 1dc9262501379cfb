import { existsSync, readFileSync } from "node:fs";
import { E2E_LOG_FILE, E2E_SESSION_SECRET } from "../../playwright.config";

/**
 * After the whole e2e run (Playwright's global teardown): no line the console and the platform
 * logged during it holds a password, a secret, a token, a session cookie or a whole phone number
 * (README "Running it"). A failure shows each offending line with the secret itself masked.
 */
const SECRETS: [kind: string, pattern: RegExp][] = [
  ["the demo password", /Switchboard@2026/g],
  ["the session secret", new RegExp(E2E_SESSION_SECRET, "g")],
  ["the console's client secret", /web-console-secret/g],
  ["a bearer or basic credential", /\b(?:Bearer|Basic) (?!\[redacted\])[\w\-.~+/=]{8,}/gi],
  ["an access token", /"access_?token"\s*:\s*"(?!\[redacted\])[^"]+"/gi],
  ["a session cookie", /__session=[^;"\s]+/g],
  ["a whole mobile number", /(?<![\w.])(?:\+?86)?1[3-9]\d{9}(?![\w.])/g],
];

/** The lines holding secrets, each with every secret in it masked and what it held named. */
export function secretsIn(lines: string[]): string[] {
  const found: string[] = [];
  lines.forEach((line, index) => {
    const kinds = SECRETS.filter(([, pattern]) => line.match(pattern)).map(([kind]) => kind);
    if (kinds.length === 0) return;
    const masked = SECRETS.reduce((text, [kind, pattern]) => text.replace(pattern, `«${kind}»`), line);
    found.push(`line ${index + 1} (${kinds.join(", ")}): ${masked.slice(0, 500)}`);
  });
  return found;
}

export default function checkE2eLogs(): void {
  if (!existsSync(E2E_LOG_FILE)) throw new Error(`the e2e servers wrote no log to ${E2E_LOG_FILE}`);
  const lines = readFileSync(E2E_LOG_FILE, "utf8").split("\n").filter(Boolean);
  const found = secretsIn(lines);
  if (found.length > 0) throw new Error(`The e2e run's logs (${E2E_LOG_FILE}) hold secrets:\n${found.slice(0, 20).join("\n")}`);
}
