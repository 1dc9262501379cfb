import vm from "node:vm";
import { REGEX_FLAGS, REGEX_MATCHES_MAX, type RegexMatch } from "#contracts/robot-resources";

/** How long a test may match: a pattern that backtracks catastrophically is stopped, not waited for. */
export const REGEX_TEST_TIMEOUT_MS = 100;

export class RegexTimeout extends Error {}

/**
 * Every match (up to REGEX_MATCHES_MAX) of a pattern that compiles in a sample sentence. The
 * matching runs in a VM context with a timeout, so a pattern like (a+)+$ cannot hold the platform.
 */
export function matchSample(pattern: string, sample: string): RegexMatch[] {
  const context = vm.createContext({ pattern, flags: `${REGEX_FLAGS}g`, sample, max: REGEX_MATCHES_MAX });
  let found: Array<{ index: number; text: string; groups: Array<string | null> }>;
  try {
    found = vm.runInContext(
      `(() => {
        const out = [];
        for (const m of sample.matchAll(new RegExp(pattern, flags))) {
          out.push({ index: m.index, text: m[0], groups: m.slice(1).map((g) => (g === undefined ? null : g)) });
          if (out.length >= max) break;
        }
        return out;
      })()`,
      context,
      { timeout: REGEX_TEST_TIMEOUT_MS },
    );
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT") throw new RegexTimeout();
    throw error;
  }
  // Positions in characters as a person counts them (a code point each), not UTF-16 units.
  return found.map((m) => ({
    index: Array.from(sample.slice(0, m.index)).length,
    text: String(m.text),
    groups: Array.from(m.groups, (g) => (g === null ? null : String(g))),
  }));
}
