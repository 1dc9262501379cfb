import { data } from "@remix-run/node";
import { z } from "zod";
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from "#contracts/paging";

/**
 * Pagination in the URL (spec §9), as the shared <Paginator/> writes it: `page`, `size` (10, 20,
 * 50 or 100) and, on lists paged by keyset, `after`/`before` (the last/first row id shown).
 */
export const pageParam = z.coerce
  .number({ invalid_type_error: "页码必须是数字" })
  .int("页码必须是整数")
  .min(1, "页码从 1 开始")
  .max(1_000_000, "页码过大")
  .default(1);
export const sizeParam = z.coerce
  .number({ invalid_type_error: "每页条数必须是数字" })
  .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), "每页条数只能是 10、20、50 或 100")
  .default(DEFAULT_PAGE_SIZE);
export const ListPageSchema = z.object({ page: pageParam, size: sizeParam });
const idCursor = z
  .string()
  .regex(/^\d{1,15}$/, "翻页参数不正确")
  .optional();
export const KeysetPageSchema = ListPageSchema.extend({ after: idCursor, before: idCursor });

/** What the platform's list endpoints take (spec §3 "Pagination input: pageNo, pageSize"). */
export const pagination = (q: { page: number; size: number }) => ({ pageNo: q.page, pageSize: q.size });

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
