import { z } from "zod";
import { MONITOR_STATES, codesOf } from "#contracts/codes";
import { ListPageSchema } from "#app/server/page-query.server";

/** The filters, in the URL (GET form): a supervisor can bookmark their view. */
export const MonitorQuerySchema = ListPageSchema.extend({
  queueName: z.string().trim().max(64).optional(),
  state: z.enum(codesOf(MONITOR_STATES) as [string, ...string[]]).optional(),
  name: z.string().trim().max(32).optional(),
  sort: z.enum(["since"]).optional(),
});
export type MonitorQuery = z.infer<typeof MonitorQuerySchema>;
