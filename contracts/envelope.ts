import { z } from "zod";
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from "./paging";

/** Spec §9: the platform's success code. */
export const SUCCESS_CODE = 1;

/** Every platform answer except the OAuth token call: `{ code, data, msg }` (endpoints.md). */
export function envelope<T extends z.ZodTypeAny>(data: T) {
  return z.object({
    code: z.number(),
    data: data.nullish(),
    msg: z.string().nullish(),
  });
}

/** Lists travel as `data: { list, total }`. */
export function page<T extends z.ZodTypeAny>(item: T) {
  return z.object({ list: z.array(item), total: z.number().int().nonnegative() });
}

/** Spec §3 "Pagination input: pageNo, pageSize"; §9 default 20, options 10/20/50/100. */
export { DEFAULT_PAGE_SIZE, PAGE_SIZES } from "./paging";
export const PaginationSchema = z.object({
  pageNo: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n))
    .default(DEFAULT_PAGE_SIZE),
});

/** Failure body every platform error uses: the envelope with a non-1 code and a message. */
export const FailureSchema = z.object({ code: z.number(), msg: z.string(), data: z.unknown().optional() });
export type Failure = z.infer<typeof FailureSchema>;
