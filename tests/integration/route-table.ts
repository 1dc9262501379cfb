import { readFileSync, readdirSync } from "node:fs";
import { dirname } from "node:path";
import type { RouteConfigEntry } from "@remix-run/route-config";
import routes from "#app/routes";

/** Routes open to everyone: public pages of spec §2, the health check, the 404 catch-all. */
export const PUBLIC_ROUTES = new Set(["/user/login", "/user/reset", "/user/registe", "/error/403", "/error/404", "/health", "/*"]);
/**
 * Routes that need a signed-in user but no menu entitlement: the browser's log, signing out, the sidebar preference,
 * the own password, a new tenant's company details (administrators only, checked by the route).
 */
export const SESSION_ONLY_ROUTES = new Set(["/clientLog", "/user/logout", "/user/preferences", "/user/password", "/user/fillInformation"]);

/** A concrete URL for a route pattern: optional and required params become 7. */
export const urlOf = (pattern: string) => pattern.replace(/:\w+\??/g, "7");
/** The params of that URL: every `:name` is "7". */
export const paramsOf = (pattern: string) => Object.fromEntries([...pattern.matchAll(/:(\w+)/g)].map(([, name]) => [name, "7"]));

/** Every route with its pattern and a URL that reaches it; a pathless layout is probed at a child's URL. */
export type Walked = { path: string; url: string; file: string };
function walk(entries: RouteConfigEntry[], parent = ""): Walked[] {
  return entries.flatMap((entry) => {
    const path = entry.index ? parent || "/" : entry.path ? `${parent.replace(/\/$/, "")}/${entry.path}` : parent;
    const children = walk(entry.children ?? [], path);
    const own =
      entry.path !== undefined || entry.index
        ? { path, url: urlOf(path), file: entry.file }
        : { path: `layout ${entry.file}`, url: children.find((c) => c.path !== "/")?.url ?? "/", file: entry.file };
    return [own, ...children];
  });
}
export const walked = walk(routes as RouteConfigEntry[]);

export type Handler = (args: { request: Request; params: Record<string, string>; context: object }) => Promise<unknown>;
/** Every loader and action of the route tree, imported as Remix would. */
export const handlers = (
  await Promise.all(
    walked.map(async (route) => {
      const module = (await import(`../../app/${route.file}`)) as Record<string, unknown>;
      return (["loader", "action"] as const)
        .filter((kind) => typeof module[kind] === "function")
        .map((kind) => ({ ...route, kind, handler: module[kind] as Handler }));
    }),
  )
).flat();

/**
 * The form field names and literal values a route mentions: `name="…"` and `value="…"` in its
 * markup, and the keys and `z.literal("…")` values of its schemas (conform's fields are named by
 * them), in every module of the route's folder (its forms and schemas live beside route.tsx).
 */
export function formVocabulary(file: string): { names: string[]; values: string[] } {
  const folder = new URL(`../../app/${dirname(file)}/`, import.meta.url);
  const sources = /\/route\.tsx?$/.test(file)
    ? readdirSync(folder)
        .filter((name) => /\.tsx?$/.test(name) && !name.includes(".test."))
        .map((name) => readFileSync(new URL(name, folder), "utf8"))
    : [readFileSync(new URL(`../../app/${file}`, import.meta.url), "utf8")];
  const source = sources.join("\n");
  const names = new Set([
    ...[...source.matchAll(/name="([A-Za-z][\w-]*)"/g)].map(([, name]) => name),
    ...[...source.matchAll(/^\s*([A-Za-z]\w*): z\./gm)].map(([, name]) => name),
  ]);
  const values = new Set([
    ...[...source.matchAll(/value="([^"{}]{1,40})"/g)].map(([, value]) => value),
    ...[...source.matchAll(/z\.literal\("([^"]{1,40})"\)/g)].map(([, value]) => value),
  ]);
  return { names: [...names], values: [...values] };
}
