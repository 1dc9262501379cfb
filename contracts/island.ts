/**
 * What an island's action answers (JSON): what was done, or why not in Chinese. The same action
 * serves the island (fetch, `Accept: application/json`) and, where the screen has one, its form
 * without JavaScript (post/redirect/get).
 */
export type IslandAnswer<T = unknown> = { ok: true; result: T } | { ok: false; error: string };
