/** List URLs, shared by server and client (kept free of zod so hydrated routes stay small). */

/** The same list URL with some parameters changed (undefined removes one); cursors never carry over. */
export function withParams(
  pathname: string,
  search: URLSearchParams | string,
  changes: Record<string, string | number | undefined>,
): string {
  const params = new URLSearchParams(search);
  params.delete("after");
  params.delete("before");
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || value === "") params.delete(key);
    else params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

/** The keyset cursor of a row (the platform's `<callTimeMs>_<id>`). */
export const cursorOfRow = (row: { callTime: number; callId: number }) => `${row.callTime}_${row.callId}`;

/** The keyset cursors of a page of rows in id order (the outbound lists of calls). */
export const idCursors = (rows: ReadonlyArray<{ id: number }>) =>
  rows.length > 0 ? { first: String(rows[0].id), last: String(rows[rows.length - 1].id) } : undefined;

/**
 * The one way to link to a record of a list: under the list's own path, keeping the list's
 * filters and page, so a record opened from another record's dialog (or in a new tab) is found.
 */
export function recordHref(listPath: string, id: string | number, search = ""): string {
  return `${listPath}/${encodeURIComponent(String(id))}${search}`;
}
