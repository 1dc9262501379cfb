import type { IslandAnswer } from "#contracts/island";
import { isUpstreamError } from "#app/services/upstream.server";
import { redirectWithToast } from "./toast.server";

/** Whether the request came from an island (fetch asking for JSON) rather than a plain form post. */
export const fromIsland = (request: Request) => request.headers.get("Accept")?.includes("application/json") === true;

/** An island's answer as JSON, with its status. */
export function islandJson<T>(answer: IslandAnswer<T>, status = answer.ok ? 200 : 400): Response {
  return Response.json(answer, { status, headers: { "Cache-Control": "no-store" } });
}

/**
 * Runs one action of an island's endpoint and answers it: JSON for the island; for a form posted
 * without JavaScript, back to `back` with the outcome as a toast. Bad input (`refusal`) is a 400;
 * the platform's refusals keep their status and Chinese message (a 5xx tells an outbox to retry).
 */
export async function answerAction<T>(
  request: Request,
  run: () => Promise<T>,
  options: { back: string; done?: string },
): Promise<Response> {
  let outcome: { answer: IslandAnswer<T>; status: number };
  try {
    outcome = { answer: { ok: true, result: await run() }, status: 200 };
  } catch (error) {
    if (error instanceof IslandRefusal) outcome = { answer: { ok: false, error: error.message }, status: 400 };
    else if (isUpstreamError(error)) outcome = { answer: { ok: false, error: error.data.message }, status: error.init.status };
    else throw error;
  }
  if (fromIsland(request)) return islandJson(outcome.answer, outcome.status);
  const message = outcome.answer.ok ? (options.done ?? "操作成功") : outcome.answer.error;
  return redirectWithToast(options.back, message, outcome.answer.ok ? "success" : "error");
}

/** Bad input to an island's action, answered 400 with this Chinese message. */
export class IslandRefusal extends Error {}

/** The first message of a failed zod parse, as an IslandRefusal. */
export function refuse(issues: ReadonlyArray<{ message: string }>): never {
  throw new IslandRefusal(issues[0]?.message ?? "请求参数错误");
}

/** The answer of an island endpoint that only takes posts to a read. */
export const postOnly = () =>
  new Response("请使用 POST", { status: 405, headers: { Allow: "POST", "Content-Type": "text/plain; charset=utf-8" } });
