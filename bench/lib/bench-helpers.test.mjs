import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { inTurn } from "../sections/lighthouse.mjs";
import { htmlToReact } from "./html-to-react.mjs";
import { pageAssets } from "./weight.mjs";

describe("plain React rebuilds the console's markup", () => {
  it("renders server-rendered markup back to the same bytes", () => {
    const html =
      '<html lang="zh-CN"><head><meta charSet="utf-8"/><title>通话历史 - 云客服</title><link rel="stylesheet" href="/assets/theme.css"/>' +
      '<style>.a>b{color:red}</style></head><body class="sb-brand-default"><nav aria-label="主菜单"><a href="/callHistory" class="p-menuitem-link active">通话历史</a></nav>' +
      '<form method="get" action="/callHistory"><label for="phone">电话</label><input type="text" id="phone" name="phone" autoComplete="off" value="138&amp;&quot;"/>' +
      '<select name="size"><option value="20" selected="">20</option></select><button type="submit" disabled="">查询</button></form>' +
      '<table style="min-width:50rem;--x:1"><tbody><tr><td colSpan="2">共 <!-- -->3<!-- --> 条</td></tr></tbody></table></body></html>';
    expect(renderToString(htmlToReact(html))).toBe(html);
  });
});

describe("pageAssets", () => {
  it("finds stylesheets, module preloads, script sources and the modules an inline script imports", () => {
    const html =
      '<link rel="stylesheet" href="/a.css"/><link rel="modulepreload" href="/entry.js"/><link rel="icon" href="/x.png"/>' +
      '<script src="/cti/sdk.js"></script><script>window.__ctx={}</script><script type="module">import "/manifest.js";import * as r from "/route.js";</script>';
    const assets = pageAssets(html);
    expect(assets.styles).toEqual(["/a.css"]);
    expect(assets.scriptUrls.sort()).toEqual(["/cti/sdk.js", "/entry.js", "/manifest.js", "/route.js"]);
    expect(assets.inlineScripts).toHaveLength(2);
    expect(assets.scriptElements).toBe(3);
  });

  it("counts no script on a page without one", () => {
    expect(pageAssets("<html><body><p>描述 &lt;script&gt;</p></body></html>").scriptElements).toBe(0);
  });
});

describe("the Lighthouse sweep in turn", () => {
  it("measures a few screens a day and every screen within the days it takes to come round", () => {
    const pages = Array.from({ length: 57 }, (_, i) => `/screen-${i}`);
    const seen = new Set();
    for (let day = 0; day < Math.ceil(57 / 8); day++) {
      const swept = inTurn(pages, 8, new Date(Date.UTC(2026, 10, 28 + day, 3)));
      expect(new Set(swept).size).toBe(8);
      expect(inTurn(pages, 8, new Date(Date.UTC(2026, 10, 28 + day, 22)))).toEqual(swept);
      swept.forEach((page) => seen.add(page));
    }
    expect(seen.size).toBe(57);
    expect(inTurn(pages.slice(0, 5), 8, new Date())).toEqual(pages.slice(0, 5));
  });
});
