import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import { consoleAliases } from "./aliases.mjs";
import { remixOptions } from "./remix.config";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  plugins: [remix(remixOptions)],
  resolve: { alias: consoleAliases },
  // PrimeReact ships no `exports` map; bundling it into the server build avoids an ESM crash.
  ssr: { noExternal: ["primereact"] },
  build: {
    target: "es2022",
    assetsInlineLimit: 0,
    rollupOptions: {
      output: {
        // The softphone SDK is served from /cti (spec §2), under names with their content's hash.
        assetFileNames: (asset) =>
          asset.originalFileNames?.some((file) => file.includes("app/softphone/"))
            ? "cti/[name]-[hash][extname]"
            : "assets/[name]-[hash][extname]",
      },
    },
  },
  server: { port: Number(process.env.PORT ?? 3000) },
});
