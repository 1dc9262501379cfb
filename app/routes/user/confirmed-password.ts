import { z } from "zod";

/** `schema` with the password named `field` typed again in `confirm`, the same. */
export function withConfirmedPassword<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>, field: keyof Shape & string) {
  return schema
    .extend({ confirm: z.string({ required_error: "请再次输入新密码" }).min(1, "请再次输入新密码") })
    .refine((form) => (form as Record<string, unknown>)[field] === form.confirm, { path: ["confirm"], message: "两次输入的密码不一致" });
}
