import { describe, expect, it } from "vitest";
import { FestivalInputSchema, regexProblem } from "./robot-resources";

describe("regexProblem", () => {
  it("accepts what compiles, named groups and escapes included", () => {
    for (const pattern of [
      "1[3-9]\\d{9}",
      "(?<n>\\d+)期\\k<n>",
      "[\\]a-z]+",
      "\\p{Script=Han}{2,4}",
      "a{2,3}",
      "(?:是|对)的?",
      "\\u{4e00}",
    ])
      expect(regexProblem(pattern), pattern).toBeNull();
  });

  it("names the fault and its position (1-based)", () => {
    expect(regexProblem("订单(\\d+")).toBe("正则表达式无法编译：第3个字符处括号未闭合");
    expect(regexProblem("ab)c")).toBe("正则表达式无法编译：第3个字符处多余的右括号");
    expect(regexProblem("*a")).toBe("正则表达式无法编译：第1个字符处量词前没有可重复的内容");
    expect(regexProblem("ab{3,1}")).toBe("正则表达式无法编译：第7个字符处{} 量词的数字顺序颠倒");
    expect(regexProblem("x[z-a]")).toBe("正则表达式无法编译：第5个字符处字符集的范围顺序颠倒");
    expect(regexProblem("ab[cd")).toBe("正则表达式无法编译：第3个字符处方括号（字符集）未闭合");
    expect(regexProblem("ab\\")).toBe("正则表达式无法编译：第3个字符处末尾多了一个反斜杠");
    expect(regexProblem("(a)(?<n>b")).toBe("正则表达式无法编译：第4个字符处括号未闭合");
  });
});

describe("FestivalInputSchema", () => {
  it("refuses impossible dates, reversed and over-long ranges", () => {
    const message = (input: object) => FestivalInputSchema.safeParse(input).error?.issues[0]?.message;
    expect(message({ name: "春节", startDate: "2027-02-06", endDate: "2027-02-12" })).toBeUndefined();
    expect(message({ name: "春节", startDate: "2027-02-29", endDate: "2027-03-01" })).toBe("请选择开始日期");
    expect(message({ name: "春节", startDate: "2027-02-12", endDate: "2027-02-06" })).toBe("结束日期不能早于开始日期");
    expect(message({ name: "春节", startDate: "2027-01-01", endDate: "2027-03-01" })).toBe("一个节日最长31天");
  });
});
