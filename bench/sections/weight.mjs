// Browser weight of every screen: JavaScript gzip from the client manifest (0 where the route
// does not hydrate), and the HTML, JavaScript and CSS gzip of the page as rendered. Each page is
// held to what budgets.spec.ts holds it to: a hydrating route to its JS_BUDGETS line, a page with
// one enhancing script to its ENHANCEMENT_BUDGETS line, every other page to no script at all.
import { CSS_BUDGET, ENHANCEMENT_BUDGETS, JS_BUDGETS } from "../config.mjs";
import { firstEntitled, loadServerBuild, manifestJsGzip, pageWeight, screenRoutes } from "../lib/weight.mjs";

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;

export async function weight({ consoleUrl, sessions }) {
  const build = await loadServerBuild();
  const cache = new Map();
  const rows = [];
  let maxCss = 0;
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
  rows.push({
    figure: "largest CSS gzip of any page",
    value: kb(maxCss),
    target: `≤ ${kb(CSS_BUDGET)}`,
    met: maxCss <= CSS_BUDGET,
    command: "npx playwright test tests/e2e/budgets.spec.ts",
  });
  return rows;
}
