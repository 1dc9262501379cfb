import { describe, expect, it } from "vitest";
import { formatDateTime, formatTime } from "./chat-format";
import { maskPhone } from "./format";

describe("spec §9 masking and times", () => {
  it("keeps the first 3 and last 4 digits of a mainland mobile, with or without its prefix", () => {
    expect(maskPhone("13812345678")).toBe("138****5678");
    expect(maskPhone("+8613812345678")).toBe("+86138****5678");
    expect(maskPhone("008613812345678")).toBe("0086138****5678");
    expect(maskPhone("021-12345678")).toBe("021-12345678");
  });

  it("shows Beijing time", () => {
    expect(formatTime("2026-01-01T00:05:09.000Z")).toBe("08:05:09");
    expect(formatDateTime("2026-01-01T00:05:09.000Z")).toBe("2026/01/01 08:05:09");
  });
});
