// Browser weight of every screen: JavaScript gzip from the client manifest (0 where the route
// does not hydrate), and the HTML, JavaScript and CSS gzip of the page as rendered. Each page is
// held to what budgets.spec.ts holds it to: a hydrating route to its JS_BUDGETS line, a page with
// one enhancing script to its ENHANCEMENT_BUDGETS line, every other page to no script at all.
import { CSS_BUDGET, ENHANCEMENT_BUDGETS, JS_BUDGETS } from "../config.mjs";
import { firstEntitled, gzipBytes, loadServerBuild, manifestJsGzip, pageAssets, pageWeight, screenRoutes } from "../lib/weight.mjs";

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;

export async function weight({ consoleUrl, sessions }) {
  const build = await loadServerBuild();
  const cache = new Map();
  const rows = [];
  let maxCss = 0;
  /** Each island's scripts, to find what all of them load before their own code. */
  const islands = [];
  for (const screen of screenRoutes(build)) {
    const page = await firstEntitled(consoleUrl, screen.url, sessions);
    if (!page) {
      rows.push({ figure: `${screen.pattern}`, value: "no demo account may open it", target: "", met: false, command: "npm run bench" });
      continue;
    }
    const rendered = await pageWeight(consoleUrl, page.html, cache);
    const manifest = manifestJsGzip(build, screen.id);
    const enhancement = screen.hydrates ? undefined : ENHANCEMENT_BUDGETS[screen.pattern];
    const budget = screen.hydrates ? JS_BUDGETS[screen.pattern] : (enhancement ?? 0);
    const jsMet = screen.hydrates
      ? budget !== undefined && rendered.js <= budget
      : rendered.js <= budget && rendered.scriptElements <= (enhancement === undefined ? 0 : 1);
    maxCss = Math.max(maxCss, rendered.css);
    if (screen.hydrates) islands.push(pageAssets(page.html));
    rows.push({
      figure: `${screen.pattern} (${page.account}) JS manifest / JS page / HTML / CSS gzip`,
      value: `${kb(manifest.gzip)} / ${kb(rendered.js)} / ${kb(rendered.html)} / ${kb(rendered.css)}`,
      target: screen.hydrates
        ? `JS ≤ ${budget ? kb(budget) : "(no budget)"}`
        : enhancement === undefined
          ? "JS 0"
          : `one script, JS ≤ ${kb(enhancement)}`,
      met: jsMet && rendered.css <= CSS_BUDGET,
      command: "npm run bench (bench/sections/weight.mjs)",
    });
  }
  if (islands.length > 0) rows.push(islandFloor(islands, cache));
  rows.push({
    figure: "largest CSS gzip of any page",
    value: kb(maxCss),
    target: `≤ ${kb(CSS_BUDGET)}`,
    met: maxCss <= CSS_BUDGET,
    command: "npx playwright test tests/e2e/budgets.spec.ts",
  });
  return rows;
}

/**
 * The floor under every island (decision 049): the scripts all of them load (React, Remix, our
 * entry, root and shell, the shared code tables) and the smallest of their inline scripts
 * (Remix's context and route manifest, the layouts' loader data). No island weighs less.
 */
function islandFloor(islands, cache) {
  const shared = islands.map((island) => island.scriptUrls).reduce((common, urls) => common.filter((url) => urls.includes(url)));
  // pageWeight has weighed every script of every page into the cache.
  const sizes = shared.map((url) => cache.get(url));
  const scripts = sizes.reduce((sum, size) => sum + size, 0);
  const inline = Math.min(...islands.map((island) => island.inlineScripts.reduce((sum, body) => sum + gzipBytes(body), 0)));
  return {
    figure: "what every island loads before its own code: shared scripts + the least inline script",
    value: `${kb(scripts + inline)} (${kb(scripts)} + ${kb(inline)})`,
    target: "reference (the floor under the 100 KB goal)",
    command: "npm run bench (bench/sections/weight.mjs)",
    note: `${shared.length} scripts all ${islands.length} islands load, the largest ${kb(Math.max(...sizes))} (React and Remix)`,
  };
}
