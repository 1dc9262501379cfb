import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAccess } from "#app/server/access.server";
import { parseListQuery } from "#app/server/page-query.server";
import { agentPerformance } from "#app/services/inspection.server";
import { AchievementQuerySchema, performanceQuery } from "./query.server";

const COLUMNS = [
  "坐席",
  "坐席组",
  "通话量",
  "接通量",
  "通话时长(秒)",
  "平均处理时长(秒)",
  "话后整理(秒)",
  "处理成功",
  "处理失败",
  "已质检",
  "质检合格",
  "质检合格率(%)",
  "满意度(%)",
];

/** A cell as CSV: quoted, and a leading =, +, - or @ defused so a spreadsheet does not run it. */
function cell(value: string | number | null): string {
  const text = value === null ? "" : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** The performance table as CSV (UTF-8 with a BOM, so spreadsheet programs read the Chinese). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const { start, end, body } = performanceQuery(parseListQuery(request, AchievementQuerySchema));
  const page = await agentPerformance(caller, body);
  const s = (ms: number) => Math.round(ms / 1000);
  const lines = [
    COLUMNS.map(cell).join(","),
    ...page.list.map((r) =>
      [
        r.agentName,
        r.queueName,
        r.calls,
        r.connected,
        s(r.talkMs),
        s(r.avgHandleMs),
        s(r.acwMs),
        r.succeeded,
        r.failed,
        r.inspected,
        r.passed,
        r.passRate,
        r.satisfaction,
      ]
        .map(cell)
        .join(","),
    ),
  ];
  return new Response(`\uFEFF${lines.join("\r\n")}\r\n`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="achievement-${start}-${end}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
