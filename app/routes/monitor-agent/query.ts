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

/** Whether an agent is shown under the URL's filters. */
export function matches(agent: { queueName: string; state: string; name: string; agentId: string }, query: MonitorQuery) {
  return (
    (!query.queueName || agent.queueName === query.queueName) &&
    (!query.state || agent.state === query.state) &&
    (!query.name || agent.name.includes(query.name) || agent.agentId.includes(query.name))
  );
}
