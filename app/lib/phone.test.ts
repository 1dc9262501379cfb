import { expect, it } from "vitest";
import { maskPhone } from "./phone";

it("masks mainland mobile numbers, keeping the first 3 and last 4 digits (spec §9)", () => {
  expect(maskPhone("13800138000")).toBe("138****8000");
  expect(maskPhone("+8613800138000")).toBe("+86138****8000");
  expect(maskPhone("008613800138000")).toBe("0086138****8000");
  expect(maskPhone("010-12345678")).toBe("010-12345678");
});
