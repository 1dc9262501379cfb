import type { MenuItem } from "#contracts/crm";

/** Spec §2: reachable without menu entitlement. */
export const PUBLIC_PATHS: readonly string[] = ["/", "/user/login", "/user/reset", "/user/registe", "/error/404", "/error/403"];

export function normalisePath(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed === "" ? "/" : trimmed;
}

function firstSegment(path: string): string | undefined {
  return path.split("/").find((part) => part !== "");
}

const flattened = new WeakMap<readonly MenuItem[], MenuItem[]>();

/** Every item of a menu tree, parents first; worked out once per menu object (a user's is kept). */
export function flattenMenu(items: readonly MenuItem[]): MenuItem[] {
  let all = flattened.get(items);
  if (!all) {
    all = items.flatMap((item) => [item, ...flattenMenu(item.children ?? [])]);
    flattened.set(items, all);
  }
  return all;
}

/**
 * Spec §2/§6: a path is allowed if it is public, or equals, or shares its first segment with,
 * the url of a menu item the server returned for the user. The home url '/' has no first
 * segment, so it entitles nothing beyond itself.
 */
export function isPathAllowed(pathname: string, menu: readonly MenuItem[]): boolean {
  const path = normalisePath(pathname);
  if (PUBLIC_PATHS.includes(path)) return true;
  const segment = firstSegment(path);
  return flattenMenu(menu).some((item) => {
    const url = normalisePath(item.url);
    return url === path || (segment !== undefined && firstSegment(url) === segment);
  });
}

/** Spec §2: the active menu is the one whose url is contained in the current path (the longest). */
export function activeMenuUrl(pathname: string, menu: readonly MenuItem[]): string | null {
  const path = normalisePath(pathname);
  let best: string | null = null;
  for (const item of flattenMenu(menu)) {
    const url = normalisePath(item.url);
    const contained = url === "/" ? path === "/" : path === url || path.startsWith(`${url}/`);
    if (contained && (best === null || url.length > best.length)) best = url;
  }
  return best;
}
