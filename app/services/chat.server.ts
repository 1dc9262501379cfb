import {
  ChatBusinessRecordPageResponseSchema,
  ChatBusinessRecordResponseSchema,
  ChatDialogResponseSchema,
  ChatSessionPageResponseSchema,
  ChatSessionResponseSchema,
  QuickReplyListResponseSchema,
  type ChatSessionQuery,
} from "#contracts/chat";
import { call, requireData, type Caller } from "./upstream.server";

/** The chat service (`/chat`): sessions, messages, business records, quick replies. */

export async function listChatSessions(caller: Caller, query: ChatSessionQuery) {
  const answer = await call({ path: "/chat/api/sessions", query, schema: ChatSessionPageResponseSchema, what: "获取会话列表", caller });
  return requireData(answer, "获取会话列表");
}

export async function getChatSession(caller: Caller, sessionId: string) {
  const answer = await call({
    path: `/chat/api/sessions/${encodeURIComponent(sessionId)}`,
    schema: ChatSessionResponseSchema,
    what: "获取会话",
    caller,
  });
  return requireData(answer, "获取会话");
}

export async function joinChatSession(caller: Caller, sessionId: string) {
  const path = `/chat/api/sessions/${encodeURIComponent(sessionId)}/join`;
  return requireData(await call({ method: "POST", path, schema: ChatSessionResponseSchema, what: "接入会话", caller }), "接入会话");
}

export async function closeChatSession(caller: Caller, sessionId: string) {
  const path = `/chat/api/sessions/${encodeURIComponent(sessionId)}/close/agent`;
  return requireData(await call({ method: "POST", path, schema: ChatSessionResponseSchema, what: "结束会话", caller }), "结束会话");
}

export async function sendChatMessage(caller: Caller, sessionId: string, message: { content: string; clientId?: string }) {
  const path = `/chat/api/sessions/${encodeURIComponent(sessionId)}/messages`;
  return requireData(
    await call({ method: "POST", path, json: message, schema: ChatDialogResponseSchema, what: "发送消息", caller }),
    "发送消息",
  );
}

export async function saveChatBusinessRecord(
  caller: Caller,
  record: { sessionId: string; category: string; result: number; remark: string },
) {
  const answer = await call({
    method: "PUT",
    path: "/chat/text/business/record",
    json: record,
    schema: ChatBusinessRecordResponseSchema,
    what: "保存业务记录",
    caller,
  });
  return requireData(answer, "保存业务记录");
}

export async function listChatBusinessRecords(caller: Caller, query: { pageNo: number; pageSize: number; keyword?: string }) {
  const answer = await call({
    path: "/chat/text/business/record",
    query,
    schema: ChatBusinessRecordPageResponseSchema,
    what: "获取业务记录",
    caller,
  });
  return requireData(answer, "获取业务记录");
}

export async function listQuickReplies(caller: Caller) {
  const answer = await call({ path: "/chat/api/quick-replies", schema: QuickReplyListResponseSchema, what: "获取快捷回复", caller });
  return requireData(answer, "获取快捷回复").list;
}
