// The reference platform as one ESM file, the way `npm start` runs it (scripts/build.mjs) and the
// bench's scale section measures it. Packages stay external: the bundle must sit inside the
// repository so that node resolves them from node_modules.
import { build } from "esbuild";

export function bundlePlatform(entryPoint, outfile) {
  return build({
    entryPoints: [entryPoint],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: true,
    logLevel: "warning",
  });
}
