import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { ChatBusinessRecordInputSchema, ChatMessageInputSchema } from "#contracts/chat";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { answerAction, IslandRefusal, postOnly } from "#app/server/island.server";
import { readWorkOrderForm, requireWorkOrderCreator } from "#app/server/work-order-form.server";
import { createWorkOrderForChat } from "#app/services/work-orders.server";
import { countKnowledgeUse, reportKnowledgeSearch } from "#app/services/knowledge.server";
import { closeChatSession, joinChatSession, saveChatBusinessRecord, sendChatMessage } from "#app/services/chat.server";

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
  // A quick reply inserted (one use of its knowledge node), and a '/' search that found nothing.
  z.object({ intent: z.literal("useReply"), id: z.coerce.number().int().positive() }),
  z.object({ intent: z.literal("noReply"), keyword: z.string().trim().min(1).max(50) }),
]);

/** Nothing to read here: the workbench only posts. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAccess(request);
  return postOnly();
}

/**
 * POST /textWorkBench/actions — the text workbench island's actions (answerAction): send a
 * message, close or join a session, save its business record, count a quick reply's use, report
 * a quick-reply search that found nothing.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  return answerAction(
    request,
    async () => {
      // A work order made from the chat (the shared card's form; decision 026).
      if (form.get("intent") === "workOrder") {
        requireWorkOrderCreator(access);
        const sessionId = String(form.get("sessionId") ?? "").slice(0, 64);
        if (!sessionId) throw new IslandRefusal("请先选择会话");
        return { workOrder: await createWorkOrderForChat(access.caller, { ...readWorkOrderForm(form), sessionId }) };
      }
      const submission = parseWithZod(form, { schema: WorkbenchActionSchema });
      if (submission.status !== "success") throw new IslandRefusal(Object.values(submission.error ?? {}).flat()[0] ?? "请求参数错误");
      const input = submission.value;
      switch (input.intent) {
        case "send":
          // Form posts carry line breaks as CRLF (HTML form encoding); the agent typed LF.
          return sendChatMessage(access.caller, input.sessionId, {
            content: input.content.replace(/\r\n/g, "\n"),
            clientId: input.clientId,
          });
        case "close":
          return closeChatSession(access.caller, input.sessionId);
        case "join":
          return joinChatSession(access.caller, input.sessionId);
        case "record":
          return saveChatBusinessRecord(access.caller, input);
        case "useReply":
          return countKnowledgeUse(access.caller, input.id);
        case "noReply":
          return { found: await reportKnowledgeSearch(access.caller, input.keyword) };
      }
    },
    { back: "/textWorkBench" },
  );
}
