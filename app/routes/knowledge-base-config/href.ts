import { DEFAULT_PAGE_SIZE } from "#contracts/paging";
import { withParams } from "#app/lib/list-url";
import type { KnowledgeScreenQuery } from "./query.server";

export const SCREEN = "/knowledgeBase/config";

/** The screen's address with some parameters changed (undefined removes one); `edit` and `page` reset unless given. */
export function screenHref(
  query: Partial<KnowledgeScreenQuery>,
  change: Partial<Record<keyof KnowledgeScreenQuery, string | number | undefined>> = {},
) {
  const merged = { group: query.group, keyword: query.keyword, state: query.state, size: query.size, ...change };
  return withParams(SCREEN, "", { ...merged, size: merged.size === DEFAULT_PAGE_SIZE ? undefined : merged.size });
}
