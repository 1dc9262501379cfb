// What each page ships to the browser, from the production build and from rendered pages.
// Shared by `npm run bench` (browser weight) and the budget tests (tests/e2e/budgets.spec.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { getPage } from "./http.mjs";

export const ROOT = new URL("../..", import.meta.url).pathname;
export const CLIENT_DIR = join(ROOT, "build/console/client");

export const gzipBytes = (content) => gzipSync(content).length;

/** The production server build (routes with their handles, and the client manifest). */
export async function loadServerBuild() {
  return import(pathToFileURL(join(ROOT, "build/console/server/index.js")).href);
}

/** The chain of route ids from root down to `id`. */
function chain(build, id) {
  const ids = [];
  for (let at = id; at; at = build.routes[at]?.parentId) ids.unshift(at);
  return ids;
}

/** Whether a route asks to hydrate (its own handle or an ancestor's, as root.tsx decides). */
export const hydrates = (build, id) => chain(build, id).some((at) => build.routes[at].module.handle?.hydrate === true);

/**
 * Every screen of app/routes.ts (routes that render, not layouts, resource routes or the
 * catch-all) with its pattern and a URL that reaches it: optional params dropped, others 7.
 */
export function screenRoutes(build) {
  const pathOf = (id) =>
    "/" +
    chain(build, id)
      .map((at) => build.routes[at].path)
      .filter(Boolean)
      .join("/");
  return Object.values(build.routes)
    .filter((route) => route.id !== "root" && typeof route.module.default === "function")
    .filter((route) => (route.path || route.index) && route.path !== "*")
    .map((route) => {
      const pattern = pathOf(route.id);
      const url = pattern.replace(/\/:\w+\?/g, "").replace(/:\w+/g, "7") || "/";
      return { id: route.id, pattern, url, hydrates: hydrates(build, route.id) };
    })
    .sort((a, b) => a.pattern.localeCompare(b.pattern));
}

/**
 * The JavaScript a route would load according to the client manifest: the manifest itself, the
 * entry and every module of the route chain with their imports. 0 for a route that does not
 * hydrate, because root.tsx renders no <Scripts/> there.
 */
export function manifestJsGzip(build, id) {
  if (!hydrates(build, id)) return { files: [], gzip: 0 };
  const { assets } = build;
  const files = new Set([assets.url, assets.entry.module, ...assets.entry.imports]);
  for (const at of chain(build, id)) for (const file of [assets.routes[at].module, ...(assets.routes[at].imports ?? [])]) files.add(file);
  const gzip = [...files].reduce((sum, file) => sum + gzipBytes(readFileSync(join(CLIENT_DIR, file))), 0);
  return { files: [...files], gzip };
}

const attribute = (tag, name) => tag.match(new RegExp(`\\s${name}="([^"]*)"`, "i"))?.[1];

/** The scripts and stylesheets a rendered page refers to. */
export function pageAssets(html) {
  const styles = [];
  const scriptUrls = new Set();
  const inlineScripts = [];
  for (const tag of html.match(/<link\b[^>]*>/gi) ?? []) {
    const rel = attribute(tag, "rel");
    const href = attribute(tag, "href");
    if (!href) continue;
    if (rel === "stylesheet") styles.push(href);
    if (rel === "modulepreload") scriptUrls.add(href);
  }
  for (const [, attrs, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const src = attribute(` ${attrs}`, "src");
    if (src) scriptUrls.add(src);
    if (body.trim()) {
      inlineScripts.push(body);
      // Remix's module script imports the manifest and the route modules by URL.
      for (const [, url] of body.matchAll(/(?:import|from)\s*"([^"]+\.js)"/g)) scriptUrls.add(url);
    }
  }
  return { styles, scriptUrls: [...scriptUrls], inlineScripts, scriptElements: (html.match(/<script\b/gi) ?? []).length };
}

/** gzip bytes of a rendered page: its HTML, its JavaScript (inline and loaded), its CSS. */
export async function pageWeight(base, html, cache = new Map()) {
  const assets = pageAssets(html);
  const sizeOf = async (url) => {
    if (!cache.has(url)) {
      const response = await fetch(new URL(url, base));
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
      cache.set(url, gzipBytes(Buffer.from(await response.arrayBuffer())));
    }
    return cache.get(url);
  };
  const sum = async (urls) => (await Promise.all(urls.map(sizeOf))).reduce((a, b) => a + b, 0);
  return {
    html: gzipBytes(html),
    js: (await sum(assets.scriptUrls)) + assets.inlineScripts.reduce((total, body) => total + gzipBytes(body), 0),
    css: await sum(assets.styles),
    scriptElements: assets.scriptElements,
  };
}

/**
 * The page as the first account that may open it gets it (anonymous first). A screen no demo
 * account is entitled to (its menu item is not seeded yet) is measured as the 403 page it renders.
 */
export async function firstEntitled(base, url, sessions) {
  let refused;
  for (const [account, cookie] of [["anonymous", undefined], ...Object.entries(sessions)]) {
    const page = await getPage(base, url, cookie);
    // /error/404 answers 404 and /error/403 answers 403: an error page's own status is its success.
    const expected = Number(/^\/error\/(\d{3})$/.exec(url)?.[1] ?? 200);
    if (page.status === expected) return { account, ...page };
    if (page.status === 403) refused ??= { account: `${account}, 403`, ...page };
  }
  return refused;
}
