import type { KnowledgeScreenQuery } from "./query.server";

export const SCREEN = "/knowledgeBase/config";

/** The screen's address with some parameters changed (undefined removes one); `edit` and `page` reset unless given. */
export function screenHref(
  query: Partial<KnowledgeScreenQuery>,
  change: Partial<Record<keyof KnowledgeScreenQuery, string | number | undefined>> = {},
) {
  const params = new URLSearchParams();
  const merged: Record<string, unknown> = { group: query.group, keyword: query.keyword, state: query.state, size: query.size, ...change };
  for (const [key, value] of Object.entries(merged)) {
    if (value === undefined || value === "" || (key === "size" && value === 20)) continue;
    params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${SCREEN}?${search}` : SCREEN;
}
