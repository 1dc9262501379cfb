import type { LoaderFunctionArgs } from "@remix-run/node";
import type { PerformanceRow } from "#contracts/inspection";
import { requireAccess } from "#app/server/access.server";
import { parseListQuery } from "#app/server/page-query.server";
import { agentPerformance } from "#app/services/inspection.server";
import { AchievementQuerySchema, performanceQuery } from "./query.server";

type Row = PerformanceRow;
const seconds = (ms: number) => Math.round(ms / 1000);

/** The CSV's columns: a header and its value; a text agent's own figures are their chats. */
const COMMON: Array<[string, (r: Row) => string | number | null]> = [
  ["坐席", (r) => r.agentName],
  ["坐席组", (r) => r.queueName],
];
const VOICE: typeof COMMON = [
  ["通话量", (r) => r.calls],
  ["接通量", (r) => r.connected],
  ["通话时长(秒)", (r) => seconds(r.talkMs)],
  ["平均处理时长(秒)", (r) => seconds(r.avgHandleMs)],
  ["话后整理(秒)", (r) => seconds(r.acwMs)],
  ["处理成功", (r) => r.succeeded],
  ["处理失败", (r) => r.failed],
  ["已质检", (r) => r.inspected],
  ["质检合格", (r) => r.passed],
  ["质检合格率(%)", (r) => r.passRate],
  ["满意度(%)", (r) => r.satisfaction],
];
const CHAT: typeof COMMON = [
  ["会话量", (r) => r.chats],
  ["回复数", (r) => r.replies],
  ["会话时长(秒)", (r) => seconds(r.chatMs)],
  ["平均会话时长(秒)", (r) => seconds(r.avgChatMs)],
];

/** A cell as CSV: quoted, and a leading =, +, - or @ defused so a spreadsheet does not run it. */
function cell(value: string | number | null): string {
  const text = value === null ? "" : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** The performance table as CSV (UTF-8 with a BOM, so spreadsheet programs read the Chinese). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { caller, user } = await requireAccess(request);
  const { start, end, chat, body } = performanceQuery(parseListQuery(request, AchievementQuerySchema), user);
  const page = await agentPerformance(caller, body);
  const columns = [...COMMON, ...(chat ? CHAT : VOICE)];
  const lines = [
    columns.map(([header]) => cell(header)).join(","),
    ...page.list.map((r) => columns.map(([, value]) => cell(value(r))).join(",")),
  ];
  return new Response(`\uFEFF${lines.join("\r\n")}\r\n`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="achievement-${chat ? "text" : "voice"}-${start}-${end}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
