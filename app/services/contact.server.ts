import { CallDetailResponseSchema, CallRecordPageResponseSchema, type CallExport, type CallFilter } from "#contracts/contact";
import { call, requireData, send, upstreamError, type Caller } from "./upstream.server";

/** The contact service's call records (endpoints.md, R rows). */

export type CallLister = (caller: Caller, filter: CallFilter) => ReturnType<typeof listBusinessCallHistory>;

/** GET /contact/business/callhistory — the caller's calls (an agent's own; everyone's for supervisors). */
export async function listBusinessCallHistory(caller: Caller, filter: CallFilter) {
  const answer = await call({
    path: "/contact/business/callhistory",
    query: filter,
    schema: CallRecordPageResponseSchema,
    what: "获取通话历史",
    caller,
  });
  return requireData(answer, "获取通话历史");
}

/** GET /contact/income/calls/history — the caller's inbound calls. */
export async function listIncomingHistory(caller: Caller, filter: CallFilter) {
  const answer = await call({
    path: "/contact/income/calls/history",
    query: filter,
    schema: CallRecordPageResponseSchema,
    what: "获取呼入历史",
    caller,
  });
  return requireData(answer, "获取呼入历史");
}

/** POST /contact/income/calls — the tenant's inbound calls. */
export async function listIncomingCalls(caller: Caller, filter: CallFilter) {
  const answer = await call({
    method: "POST",
    path: "/contact/income/calls",
    json: filter,
    schema: CallRecordPageResponseSchema,
    what: "获取呼入通话",
    caller,
  });
  return requireData(answer, "获取呼入通话");
}

/** POST /contact/campaign/record/list — the tenant's outbound campaign calls. */
export async function listCampaignRecords(caller: Caller, filter: CallFilter) {
  const answer = await call({
    method: "POST",
    path: "/contact/campaign/record/list",
    json: filter,
    schema: CallRecordPageResponseSchema,
    what: "获取外呼通话记录",
    caller,
  });
  return requireData(answer, "获取外呼通话记录");
}

/** GET /contact/income/calls/{id} — spec §3 call task detail; unknown or foreign ids are a 404. */
export async function getCallDetail(caller: Caller, callId: number) {
  const answer = await call({
    path: `/contact/income/calls/${callId}`,
    schema: CallDetailResponseSchema,
    what: "获取通话详情",
    caller,
    allowNotFound: true,
  });
  if (!answer) throw upstreamError({ what: "获取通话详情", status: 404, message: "通话记录不存在" });
  return requireData(answer, "获取通话详情");
}

/** POST /contact/campaign/record/export — the raw stream (CSV or XLSX) for the browser to download. */
export function exportCampaignRecords(caller: Caller, filter: CallExport) {
  // An export of a million rows takes a while; only the wait for the first byte is bounded.
  return send({
    method: "POST",
    path: "/contact/campaign/record/export",
    json: filter,
    what: "导出外呼通话记录",
    caller,
    timeoutMs: 600_000,
  });
}
