import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { ChatBusinessRecordInputSchema, ChatMessageInputSchema } from "#contracts/chat";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { closeChatSession, joinChatSession, saveChatBusinessRecord, sendChatMessage } from "#app/services/chat.server";
import { isUpstreamError } from "#app/services/upstream.server";

/** What the text workbench asks of the console; every intent names its session. */
export const WorkbenchActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("send"),
    sessionId: z.string().min(1),
    content: ChatMessageInputSchema.shape.content,
    clientId: z.string().min(1).max(64),
  }),
  z.object({ intent: z.literal("close"), sessionId: z.string().min(1) }),
  z.object({ intent: z.literal("join"), sessionId: z.string().min(1) }),
  ChatBusinessRecordInputSchema.extend({ intent: z.literal("record") }),
]);

/** The answer the workbench reads: what was done, or why not (a Chinese message). */
export type WorkbenchAnswer = { ok: true; result: unknown } | { ok: false; error: string };

/** Nothing to read here: the workbench only posts. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAccess(request);
  return new Response("请使用 POST", { status: 405, headers: { Allow: "POST" } });
}

/**
 * POST /textWorkBench/actions — the hydrated text workbench's one action (resource route, JSON
 * answers): send a message, close or join a session, save its business record.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  const submission = parseWithZod(form, { schema: WorkbenchActionSchema });
  if (submission.status !== "success") {
    const error = Object.values(submission.error ?? {}).flat()[0] ?? "请求参数错误";
    return Response.json({ ok: false, error } satisfies WorkbenchAnswer, { status: 400 });
  }
  const input = submission.value;
  try {
    const result =
      input.intent === "send"
        ? // Form posts carry line breaks as CRLF (HTML form encoding); the agent typed LF.
          await sendChatMessage(access.caller, input.sessionId, { content: input.content.replace(/\r\n/g, "\n"), clientId: input.clientId })
        : input.intent === "close"
          ? await closeChatSession(access.caller, input.sessionId)
          : input.intent === "join"
            ? await joinChatSession(access.caller, input.sessionId)
            : await saveChatBusinessRecord(access.caller, input);
    return Response.json({ ok: true, result } satisfies WorkbenchAnswer);
  } catch (error) {
    // The platform's refusal or absence keeps its status: the workbench retries on 5xx only.
    if (isUpstreamError(error))
      return Response.json({ ok: false, error: error.data.message } satisfies WorkbenchAnswer, { status: error.init.status });
    throw error;
  }
}
