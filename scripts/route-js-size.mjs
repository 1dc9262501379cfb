// The gzip size of the JavaScript a page loads when the given routes match: Remix's entry, root,
// and each route module with its imports, read from the production build's Remix manifest.
//   node scripts/route-js-size.mjs routes/shell/route routes/call-history/route call-detail/callHistory
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const root = new URL("../build/console/client", import.meta.url).pathname;
const assets = join(root, "assets");
const manifestFile = readdirSync(assets).find((name) => /^manifest-.*\.js$/.test(name));
const manifest = JSON.parse(
  readFileSync(join(assets, manifestFile), "utf8")
    .replace(/^window\.__remixManifest=/, "")
    .replace(/;\s*$/, ""),
);
const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
for (const id of ["root", ...process.argv.slice(2)]) {
  const route = manifest.routes[id];
  if (!route) throw new Error(`no route ${id}; known: ${Object.keys(manifest.routes).join(", ")}`);
  for (const file of [route.module, ...(route.imports ?? [])]) files.add(file);
}
let total = 0;
for (const file of files) total += gzipSync(readFileSync(join(root, file)), { level: 9 }).length;
console.log(`${files.size} files, ${(total / 1024).toFixed(1)} KB gzip`);
