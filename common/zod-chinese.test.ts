import { describe, expect, it } from "vitest";
import { z } from "zod";
import { chineseErrorMap } from "./zod-chinese";

const firstMessage = (schema: z.ZodTypeAny, value: unknown) => {
  const result = schema.safeParse(value, { errorMap: chineseErrorMap });
  if (result.success) throw new Error("expected a failure");
  return result.error.issues[0].message;
};

describe("Chinese validation messages", () => {
  it("says what is wrong in Chinese for every kind of check", () => {
    expect(firstMessage(z.object({ name: z.string() }), {})).toBe("此项为必填项");
    expect(firstMessage(z.number(), "x")).toBe("应为数字");
    expect(firstMessage(z.string().min(1), "")).toBe("此项为必填项");
    expect(firstMessage(z.string().max(5), "123456")).toBe("长度不能超过 5 个字符");
    expect(firstMessage(z.string().min(3), "a")).toBe("长度不能小于 3 个字符");
    expect(firstMessage(z.number().int(), 1.5)).toBe("应为整数");
    expect(firstMessage(z.number().max(10), 11)).toBe("不能大于 10");
    expect(firstMessage(z.number().min(1), 0)).toBe("不能小于 1");
    expect(firstMessage(z.number().positive(), 0)).toBe("应大于 0");
    expect(firstMessage(z.array(z.string()).min(1), [])).toBe("请至少选择一项");
    expect(firstMessage(z.array(z.number()).max(2), [1, 2, 3])).toBe("数量不能超过 2 项");
    expect(firstMessage(z.enum(["a", "b"]), "c")).toBe("所选值无效，请重新选择");
    expect(firstMessage(z.string().email(), "x")).toBe("邮箱格式不正确");
    expect(firstMessage(z.string().regex(/^\d+$/), "x")).toBe("格式不正确");
    expect(firstMessage(z.object({}).strict(), { extra: 1 })).toBe("包含无法识别的字段");
  });

  it("keeps a schema's own message", () => {
    expect(firstMessage(z.string().min(1, "请填写活动名称"), "")).toBe("请填写活动名称");
  });

  it("never answers in English", () => {
    for (const [schema, value] of [
      [z.bigint(), "x"],
      [z.date(), new Date("x")],
      [z.number().multipleOf(5), 3],
      [z.number().finite(), Infinity],
      [z.union([z.string(), z.number()]), true],
      [z.literal("x"), "y"],
    ] as const) {
      expect(firstMessage(schema, value)).toMatch(/[\u4e00-\u9fff]/);
    }
  });
});
