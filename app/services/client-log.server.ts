import { ClientLogResponseSchema, type ClientLog } from "#contracts/client-log";
import { call, requireData, type Caller } from "./upstream.server";

const WHAT = "记录浏览器日志";

/** The platform's log of what went wrong in a browser (GET /api/log, spec §7). */
export async function writeClientLog(caller: Caller, entry: ClientLog) {
  const query = { level: entry.level, message: entry.message, page: entry.page, data: entry.data };
  return requireData(await call({ path: "/api/log", query, schema: ClientLogResponseSchema, what: WHAT, caller }), WHAT);
}
