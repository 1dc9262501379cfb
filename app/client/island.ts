import type { IslandAnswer } from "#contracts/island";

/**
 * The one way a hydrated island talks to the console (docs/architecture.md, Islands): it posts an
 * intent with its fields and the page's CSRF token to its screen's action, and reads JSON from
 * the same endpoint. Never throws: a network failure answers `status: 0`, so callers decide
 * whether to keep the work in their outbox and retry.
 */
export type PostedAnswer<T> = IslandAnswer<T> & { status: number };

export async function postAction<T = unknown>(
  endpoint: string,
  csrf: string,
  intent: string,
  fields: Record<string, unknown> = {},
): Promise<PostedAnswer<T>> {
  const body = new FormData();
  body.set("csrf", csrf);
  body.set("intent", intent);
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    body.set(key, typeof value === "string" ? value : JSON.stringify(value));
  }
  let response: Response;
  try {
    response = await fetch(endpoint, { method: "POST", body, credentials: "same-origin", headers: { Accept: "application/json" } });
  } catch {
    return { ok: false, error: "网络已断开，操作未发送", status: 0 };
  }
  // The session ended and the action sent the browser to sign in: reload so the page does too.
  if (response.redirected) {
    window.location.reload();
    return { ok: false, error: "登录已失效，请重新登录", status: 401 };
  }
  try {
    return { ...((await response.json()) as IslandAnswer<T>), status: response.status };
  } catch {
    return { ok: false, error: "操作失败，请稍后重试", status: response.status };
  }
}

/** Reads an island's JSON (GET with a query); null when it cannot. */
export async function readJson<T>(endpoint: string, query?: Record<string, string>): Promise<T | null> {
  const url = query ? `${endpoint}?${new URLSearchParams(query).toString()}` : endpoint;
  try {
    const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
    return response.ok ? ((await response.json()) as T) : null;
  } catch {
    return null;
  }
}

/** Whether an answer is worth retrying later (the console or the platform could not be reached). */
export const isRetryable = (answer: { status: number }) => answer.status === 0 || answer.status >= 500;
