import { data } from "@remix-run/node";
import type { z } from "zod";

/**
 * A list screen's query (filters and pagination) from the URL, parsed with its schema; malformed
 * input is a 400 with a Chinese message, never a 500.
 */
export function parseListQuery<S extends z.ZodTypeAny>(request: Request, schema: S): z.infer<S> {
  const params = Object.fromEntries([...new URL(request.url).searchParams].filter(([, value]) => value !== ""));
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw data({ message: "查询条件不正确，请检查后重试", status: 400, what: "查询" }, { status: 400 });
  return parsed.data;
}

/** A positive integer route parameter, or the 404 page. */
export function idParam(value: string | undefined): number {
  const id = Number(value);
  if (!Number.isInteger(id) || id <= 0) throw data({ message: "页面不存在", status: 404, what: "查询" }, { status: 404 });
  return id;
}
