import { z, ZodIssueCode, ZodParsedType, type ZodErrorMap } from "zod";

/**
 * Chinese messages for every zod check that does not carry its own, so no English reaches a user
 * from validation, in the console's forms or in the platform's 400s. Schemas still give their own
 * message where a field deserves a better one ("请填写活动名称").
 */
const TYPE_NAMES: Partial<Record<string, string>> = {
  [ZodParsedType.string]: "文本",
  [ZodParsedType.number]: "数字",
  [ZodParsedType.integer]: "整数",
  [ZodParsedType.boolean]: "是或否",
  [ZodParsedType.date]: "日期",
  [ZodParsedType.array]: "列表",
  [ZodParsedType.object]: "对象",
  [ZodParsedType.bigint]: "整数",
};

/** Strings, lists and sets are measured ("长度不能超过 64 个字符"); numbers and dates are compared. */
const MEASURED: Record<string, { what: string; unit: string }> = {
  string: { what: "长度", unit: " 个字符" },
  array: { what: "数量", unit: " 项" },
  set: { what: "数量", unit: " 项" },
};

function bound(value: number | bigint, type: string): string {
  if (type === "date") return new Date(Number(value)).toISOString().slice(0, 10);
  return String(value);
}

export const chineseErrorMap: ZodErrorMap = (issue, ctx) => {
  switch (issue.code) {
    case ZodIssueCode.invalid_type:
      if (issue.received === ZodParsedType.undefined || issue.received === ZodParsedType.null) return { message: "此项为必填项" };
      return { message: `应为${TYPE_NAMES[issue.expected] ?? "正确的格式"}` };
    case ZodIssueCode.too_small: {
      const measured = MEASURED[issue.type];
      const at = bound(issue.minimum, issue.type);
      if (!measured) return { message: issue.inclusive ? `不能小于 ${at}` : `应大于 ${at}` };
      if (issue.type === "string" && at === "1") return { message: "此项为必填项" };
      if (issue.type !== "string" && at === "1") return { message: "请至少选择一项" };
      return { message: `${measured.what}${issue.exact ? "应为" : "不能小于"} ${at}${measured.unit}` };
    }
    case ZodIssueCode.too_big: {
      const measured = MEASURED[issue.type];
      const at = bound(issue.maximum, issue.type);
      if (!measured) return { message: issue.inclusive ? `不能大于 ${at}` : `应小于 ${at}` };
      return { message: `${measured.what}${issue.exact ? "应为" : "不能超过"} ${at}${measured.unit}` };
    }
    case ZodIssueCode.invalid_string:
      if (issue.validation === "email") return { message: "邮箱格式不正确" };
      if (issue.validation === "url") return { message: "网址格式不正确" };
      if (issue.validation === "date") return { message: "日期格式不正确" };
      if (issue.validation === "datetime") return { message: "时间格式不正确" };
      return { message: "格式不正确" };
    case ZodIssueCode.invalid_enum_value:
    case ZodIssueCode.invalid_literal:
    case ZodIssueCode.invalid_union_discriminator:
      return { message: "所选值无效，请重新选择" };
    case ZodIssueCode.invalid_union:
      return { message: "格式不正确" };
    case ZodIssueCode.invalid_date:
      return { message: "日期无效" };
    case ZodIssueCode.not_multiple_of:
      return { message: `应为 ${issue.multipleOf} 的整数倍` };
    case ZodIssueCode.not_finite:
      return { message: "应为有限的数字" };
    case ZodIssueCode.unrecognized_keys:
      return { message: "包含无法识别的字段" };
    default:
      return { message: ctx.defaultError && /[\u4e00-\u9fff]/.test(ctx.defaultError) ? ctx.defaultError : "输入不正确" };
  }
};

/** Installs the map for this process (each server's entry point calls it once; in the browser, the island whose forms validate). */
export function installChineseValidationMessages(): void {
  z.setErrorMap(chineseErrorMap);
}
