// End-to-end tests run in Debian's Chromium (Playwright's own browser download does not work
// here). Installs it when missing and we are root; otherwise says how.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";

export function ensureChromium(path = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium") {
  if (existsSync(path)) return;
  if (process.getuid?.() === 0) {
    console.log("[test] Chromium is missing: installing Debian's chromium package");
    execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium", { stdio: "inherit" });
    if (existsSync(path)) return;
  }
  console.error(
    `[test] Chromium was not found at ${path}.\n` +
      "       Install Debian's package (sudo apt-get install chromium), or set CHROMIUM_PATH to a Chromium binary.",
  );
  process.exit(1);
}
