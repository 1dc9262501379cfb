import { describe, expect, it } from "vitest";
import { dayBoundaries, formatDateTime, formatDuration, maskDialogue, maskNumbers, maskPhone, today, truncate } from "./format";

describe("maskPhone (spec §9)", () => {
  it("keeps the first 3 and last 4 digits of a mainland mobile number", () => {
    expect(maskPhone("13812345678")).toBe("138****5678");
    expect(maskPhone("+8613812345678")).toBe("+86138****5678");
    expect(maskPhone("008619912345678")).toBe("0086199****5678");
  });
  it("leaves everything else alone", () => {
    for (const other of ["02112345678", "1381234567", "138123456789", "+8523812345678", "10086", ""]) expect(maskPhone(other)).toBe(other);
  });
});

describe("maskDialogue (spec §9)", () => {
  it("replaces digits with stars and masks names before honorifics", () => {
    expect(maskDialogue("您好，张先生，您尾号1234的卡")).toBe("您好，*先生，您尾号****的卡");
    expect(maskDialogue("李女士和王小姐")).toBe("*女士和*小姐");
    expect(maskDialogue("没有敏感信息")).toBe("没有敏感信息");
  });
});

describe("formatDuration (spec §9)", () => {
  it("shows hours, minutes and seconds from milliseconds", () => {
    expect(formatDuration(0)).toBe("0秒");
    expect(formatDuration(59_400)).toBe("59秒");
    expect(formatDuration(61_000)).toBe("1分1秒");
    expect(formatDuration(3_723_000)).toBe("1小时2分3秒");
    expect(formatDuration(null)).toBe("0秒");
  });
});

describe("truncate", () => {
  it("adds an ellipsis only to text over the limit, counting characters not bytes", () => {
    expect(truncate("一二三四五", 5)).toBe("一二三四五");
    expect(truncate("一二三四五六", 5)).toBe("一二三四五…");
  });
});

describe("times in China Standard Time", () => {
  it("formats epoch ms", () => {
    expect(formatDateTime(Date.UTC(2026, 10, 21, 16, 0, 5))).toBe("2026-11-22 00:00:05");
    expect(today(Date.UTC(2026, 10, 21, 16, 0, 0))).toBe("2026-11-22");
    expect(today(Date.UTC(2026, 10, 21, 15, 59, 59))).toBe("2026-11-21");
  });
  it("gives a day's boundaries as epoch seconds times 1000 (spec §9)", () => {
    const day = dayBoundaries("2026-11-22")!;
    expect(day.start).toBe(Date.UTC(2026, 10, 21, 16, 0, 0));
    expect(day.end).toBe(Date.UTC(2026, 10, 22, 15, 59, 59));
    expect(day.end % 1000).toBe(0);
    expect(dayBoundaries("2026-02-30")).toBeNull();
    expect(dayBoundaries("22/11/2026")).toBeNull();
  });
});

describe("maskNumbers", () => {
  it("masks every mobile number in a value's strings, however deep, and leaves the rest", () => {
    const data = {
      call: { phone: "13812345678", transcript: [{ dialogContent: "我的号码是19586041386，备用+8613900005555" }] },
      hotline: "95588",
      landline: "02588887777",
      longer: "123456789012345",
      count: 13812345678,
      none: null,
    };
    expect(maskNumbers(data)).toEqual({
      call: { phone: "138****5678", transcript: [{ dialogContent: "我的号码是195****1386，备用+86139****5555" }] },
      hotline: "95588",
      landline: "02588887777",
      longer: "123456789012345",
      count: 13812345678,
      none: null,
    });
  });
});
