import { z } from "zod";
import { CLIENT_LOG_LEVELS } from "./client-log-entry";
import { envelope } from "./envelope";

export { CLIENT_LOG_LIMIT, fitClientLog } from "./client-log-entry";

/** The browser's log (`GET /api/log`, spec §7): what went wrong in a hydrated screen, reported so that support can see it. */
export const ClientLogSchema = z.object({
  level: z.enum(CLIENT_LOG_LEVELS).default("error"),
  message: z.string().trim().min(1, "日志内容不能为空").max(500, "日志内容不能超过500个字符"),
  /** The page the browser was on (its path). */
  page: z.string().max(500, "页面地址不能超过500个字符").default(""),
  data: z.string().optional(),
});
export type ClientLog = z.infer<typeof ClientLogSchema>;

export const ClientLogResponseSchema = envelope(z.object({ dataDropped: z.boolean() }));
