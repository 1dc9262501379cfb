import { describe, expect, it } from "vitest";
import { smsLength, smsSegments } from "./sms";

describe("SMS length", () => {
  it("holds 70 characters in one message and 67 in each part of a longer one, the signature included", () => {
    expect(smsSegments("")).toBe(0);
    expect(smsSegments("一".repeat(70))).toBe(1);
    expect(smsSegments("一".repeat(71))).toBe(2);
    expect(smsSegments("一".repeat(134))).toBe(2);
    expect(smsSegments("一".repeat(135))).toBe(3);
    // 【云客服】 is 5 characters.
    expect(smsLength("一".repeat(65), "云客服")).toBe(70);
    expect(smsSegments("一".repeat(65), "云客服")).toBe(1);
    expect(smsSegments("一".repeat(66), "云客服")).toBe(2);
  });

  it("counts an emoji once, as a phone shows it", () => {
    expect(smsLength("好😀")).toBe(2);
  });
});
