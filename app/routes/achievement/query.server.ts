import { z } from "zod";
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
  sort: z.enum(PERFORMANCE_SORTS).default("calls"),
  order: z.enum(["asc", "desc"]).default("desc"),
});
export type AchievementQuery = z.infer<typeof AchievementQuerySchema>;

/** The platform's query; the period defaults to the last 30 days up to today. */
export function performanceQuery(q: AchievementQuery) {
  const end = q.end ?? today();
  const start = q.start ?? today(Date.now() - 29 * 86_400_000);
  return {
    start,
    end,
    body: {
      startTime: dayBoundaries(start)?.start,
      endTime: dayBoundaries(end)?.end,
      queue: q.queue || undefined,
      sort: q.sort,
      order: q.order,
    },
  };
}
