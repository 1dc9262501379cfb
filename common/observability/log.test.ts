import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { createLogger, logOptions, scrubLine } from "./log";

function capture(fields: Record<string, unknown>, message: string): string {
  let written = "";
  const sink = new Writable({
    write(chunk, _encoding, done) {
      written += String(chunk);
      done();
    },
  });
  pino(logOptions("test", { LOG_LEVEL: "info" }), sink).info(fields, message);
  return written;
}

describe("log lines", () => {
  it("censor secret fields by name, at the top and one level down", () => {
    const line = capture(
      {
        password: "Switchboard@2026",
        req: { headers: { cookie: "__session=abc", authorization: "Bearer t0k3n" } },
        caller: { token: "t0k3n" },
      },
      "signed in",
    );
    expect(line).not.toContain("Switchboard@2026");
    expect(line).not.toContain("abc");
    expect(line).not.toContain("t0k3n");
    expect(JSON.parse(line)).toMatchObject({ service: "test", level: "info", msg: "signed in", password: "[redacted]" });
  });

  it("keep only the last four digits of a phone number anywhere in a line, and no bearer token", () => {
    const line = capture({ detail: "客户 13912345678 呼入, +8613912345678" }, "dial 010-88886666 failed: Bearer abc.def");
    expect(line).not.toMatch(/1391234|8888/);
    expect(line).toContain("****5678");
    expect(line).toContain("010-****6666");
    expect(line).toContain("Bearer [redacted]");
  });

  it("leave short numbers, times and hexadecimal ids alone", () => {
    const text = '{"time":"2026-11-28T01:54:38.123Z","userId":10012,"reqId":"4bf92f3577b34da6a3ce929d0e0e4736","ms":12.5}';
    expect(scrubLine(text)).toBe(text);
  });
});

describe("the log file", () => {
  const fileIn = () => join(mkdtempSync(join(tmpdir(), "switchboard-log-")), "lines.log");
  const linesOf = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : []);

  it("gets a lone line within about a second, though lines are written in batches", async () => {
    const file = fileIn();
    const log = createLogger("test", { LOG_FILE: file, LOG_LEVEL: "info" });
    log.info({ event: "lone" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(linesOf(file)).toEqual([]);
    await expect.poll(() => linesOf(file).map((line) => JSON.parse(line).event), { timeout: 3_000 }).toEqual(["lone"]);
  });

  it("gets what was still gathered when the process exits at once", () => {
    const file = fileIn();
    const script = `import { createLogger } from "./common/observability/log.ts";
      const log = createLogger("test", { LOG_FILE: ${JSON.stringify(file)}, LOG_LEVEL: "info" });
      for (let i = 0; i < 3; i++) log.error({ event: "last words", i });
      setTimeout(() => process.exit(1), 50);`;
    expect(() => execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: "pipe" })).toThrow();
    expect(linesOf(file).map((line) => JSON.parse(line).i)).toEqual([0, 1, 2]);
  });
});
