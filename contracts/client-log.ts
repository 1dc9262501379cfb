import { z } from "zod";
import { envelope } from "./envelope";

/**
 * The browser's log (`GET /api/log`, spec §7): what went wrong in a hydrated screen, reported so
 * that support can see it. Spec §5/§6: an entry longer than 2500 characters loses its data.
 */
export const CLIENT_LOG_LIMIT = 2500;
export const CLIENT_LOG_LEVELS = ["error", "warn", "info"] as const;

export const ClientLogSchema = z.object({
  level: z.enum(CLIENT_LOG_LEVELS).default("error"),
  message: z.string().trim().min(1, "日志内容不能为空").max(500, "日志内容不能超过500个字符"),
  /** The page the browser was on (its path). */
  page: z.string().max(500, "页面地址不能超过500个字符").default(""),
  data: z.string().optional(),
});
export type ClientLog = z.infer<typeof ClientLogSchema>;

/** The entry as it is kept: its data dropped when the whole would pass the limit. */
export function fitClientLog(entry: ClientLog): ClientLog & { dataDropped: boolean } {
  const length = entry.message.length + entry.page.length + (entry.data?.length ?? 0);
  if (entry.data === undefined || length <= CLIENT_LOG_LIMIT) return { ...entry, dataDropped: false };
  return { level: entry.level, message: entry.message, page: entry.page, dataDropped: true };
}

export const ClientLogResponseSchema = envelope(z.object({ dataDropped: z.boolean() }));
