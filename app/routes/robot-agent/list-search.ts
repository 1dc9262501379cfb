/**
 * The 下线原因 typed on an agent's page, carried back by the 强制下线 confirmation's 取消 (a page
 * address, so it works without JavaScript): the form has it again, the focus on 强制下线.
 * (URLSearchParams here rather than lib/list-url: one more importer splits that module into a
 * chunk of its own, which the hydrated monitor pages then load as one more file.)
 */
export const LOGOUT_REASON_PARAM = "logoutReason";

/** A query string (`?...` or empty) with the reason set, or removed when undefined. */
export function withLogoutReason(search: string, reason: string | undefined): string {
  const params = new URLSearchParams(search);
  if (reason === undefined) params.delete(LOGOUT_REASON_PARAM);
  else params.set(LOGOUT_REASON_PARAM, reason);
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** The list's query (filters, page) without the reason carried back by 取消. */
export const listSearch = (search: string) => withLogoutReason(search, undefined);
