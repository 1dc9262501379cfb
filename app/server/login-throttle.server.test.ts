import { describe, expect, it } from "vitest";
import { createLoginThrottle, throttleMessage } from "./login-throttle.server";

describe("login throttle: at most 10 failed sign-ins per account per 15 minutes", () => {
  function setup() {
    let now = 1_000_000;
    const throttle = createLoginThrottle({ now: () => now });
    return { throttle, advance: (ms: number) => (now += ms), now: () => now };
  }

  it("allows ten failures, then refuses until the oldest leaves the window", () => {
    const { throttle, advance, now } = setup();
    const first = now();
    for (let i = 0; i < 10; i++) {
      expect(throttle.check("agent").allowed).toBe(true);
      throttle.fail("agent");
      advance(1_000);
    }
    const verdict = throttle.check("agent");
    expect(verdict).toEqual({ allowed: false, retryAt: first + 15 * 60_000 });
    advance(first + 15 * 60_000 - 1 - now());
    expect(throttle.check("agent").allowed).toBe(false);
    advance(1); // now exactly retryAt: the promised time
    expect(throttle.check("agent").allowed).toBe(true);
  });

  it("counts each account on its own", () => {
    const { throttle } = setup();
    for (let i = 0; i < 10; i++) throttle.fail("agent");
    expect(throttle.check("agent").allowed).toBe(false);
    expect(throttle.check("chat").allowed).toBe(true);
  });

  it("forgets failures after a successful sign-in", () => {
    const { throttle } = setup();
    for (let i = 0; i < 9; i++) throttle.fail("agent");
    throttle.succeed("agent");
    for (let i = 0; i < 9; i++) throttle.fail("agent");
    expect(throttle.check("agent").allowed).toBe(true);
  });

  it("says when to try again", () => {
    const retryAt = new Date(2026, 10, 22, 14, 5).getTime();
    expect(throttleMessage(retryAt, retryAt - 11.5 * 60_000)).toBe("登录失败次数过多，请在 14:05 后重试（约 12 分钟）");
  });
});
