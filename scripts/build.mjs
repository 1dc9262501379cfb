// Builds what `npm start` runs: the console (Remix on Vite) and the reference platform bundle.
// `--if-needed` skips the build when no source has changed since the last one.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bundlePlatform } from "./bundle-platform.mjs";

const root = new URL("..", import.meta.url).pathname;
const stampFile = join(root, "build", ".source-hash");
const SOURCES = [
  "app",
  "common",
  "contracts",
  "upstream",
  "package-lock.json",
  "vite.config.ts",
  "remix.config.ts",
  "aliases.mjs",
  "tsconfig.json",
  "server.mjs",
];

function sourceHash() {
  const hash = createHash("sha256");
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path).sort()) {
        if (entry === "node_modules" || entry.endsWith(".test.ts") || entry.endsWith(".test.tsx")) continue;
        visit(join(path, entry));
      }
    } else {
      hash.update(path.slice(root.length)).update(readFileSync(path));
    }
  };
  for (const source of SOURCES) visit(join(root, source));
  return hash.digest("hex");
}

const hash = sourceHash();
if (process.argv.includes("--if-needed") && existsSync(stampFile) && readFileSync(stampFile, "utf8") === hash) {
  console.log("[build] up to date");
  process.exit(0);
}

console.log("[build] console (remix vite:build)");
execFileSync(process.execPath, [join(root, "node_modules/@remix-run/dev/dist/cli.js"), "vite:build"], { cwd: root, stdio: "inherit" });

console.log("[build] reference platform (esbuild)");
await bundlePlatform(join(root, "upstream/server.ts"), join(root, "build/upstream/server.mjs"));

mkdirSync(join(root, "build"), { recursive: true });
writeFileSync(stampFile, hash);
console.log("[build] done");
