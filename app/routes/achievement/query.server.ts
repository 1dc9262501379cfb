import { z } from "zod";
import { TEXT_AGENT_WORK_TYPE, WORK_TYPES } from "#contracts/codes";
import { PERFORMANCE_SORTS } from "#contracts/inspection";
import { dayBoundaries, today } from "#app/lib/format";
import { ListPageSchema } from "#app/server/page-query.server";

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "日期格式应为 YYYY-MM-DD")
  .optional();

/** The screen's URL: the period (days, China time), the group, the sort, the page. */
export const AchievementQuerySchema = ListPageSchema.extend({
  start: day,
  end: day,
  queue: z.string().trim().max(60).optional(),
  workType: z.coerce
    .number()
    .refine((code) => WORK_TYPES.some((t) => t.code === code), "坐席类型无效")
    .optional(),
  sort: z.enum(PERFORMANCE_SORTS).default("calls"),
  order: z.enum(["asc", "desc"]).default("desc"),
});
export type AchievementQuery = z.infer<typeof AchievementQuerySchema>;

/** The figures a text agent's work is measured by; every other sort is a voice agent's. */
const CHAT_SORTS: ReadonlyArray<AchievementQuery["sort"]> = ["chats", "replies", "chatMs", "avgChatMs"];

/**
 * The platform's query; the period defaults to the last 30 days up to today. Voice and text agents
 * are measured by different figures, so the team is shown one kind at a time (voice first); an
 * agent sees their own kind. A sort the kind has no column for falls back to its first column.
 */
export function performanceQuery(q: AchievementQuery, user: { role: string; workType?: number }) {
  const end = q.end ?? today();
  const start = q.start ?? today(Date.now() - 29 * 86_400_000);
  const workType = user.role === "agent" ? (user.workType ?? WORK_TYPES[0].code) : (q.workType ?? WORK_TYPES[0].code);
  const chat = workType === TEXT_AGENT_WORK_TYPE;
  const sort = CHAT_SORTS.includes(q.sort) === chat ? q.sort : chat ? "chats" : "calls";
  return {
    start,
    end,
    workType,
    chat,
    sort,
    body: {
      startTime: dayBoundaries(start)?.start,
      endTime: dayBoundaries(end)?.end,
      queue: q.queue || undefined,
      workType,
      sort,
      order: q.order,
    },
  };
}
