import { describe, expect, it } from "vitest";
import { loopbackVerdict, microphoneProblem, SOUND_DB, STEPS, verdictOf, type Step } from "./precall-test";

const steps = (statuses: Step["status"][]): Step[] =>
  STEPS.map(({ key, label }, i) => ({ key, label, status: statuses[i], detail: statuses[i] === "failed" ? `${label}的原因` : "" }));

describe("the pre-call test's verdict", () => {
  it("passes only when every step passed, and names the first step that failed with what to do", () => {
    expect(verdictOf(steps(["passed", "passed", "passed", "passed", "passed"]))).toBe("通话测试通过，可以开始接听电话。");
    expect(verdictOf(steps(["passed", "passed", "failed", "skipped", "skipped"]))).toBe(
      "通话测试未通过：语音服务器（注册）——语音服务器（注册）的原因",
    );
    expect(verdictOf(steps(["failed", "passed", "passed", "skipped", "failed"]))).toMatch(/^通话测试未通过：麦克风——/);
    // Still running: no verdict yet.
    expect(verdictOf(steps(["passed", "running", "waiting", "waiting", "waiting"]))).toBe("");
  });

  it("judges the agent's recorded voice by its level: nothing recorded, too quiet, or heard", () => {
    expect(loopbackVerdict(null)).toMatchObject({ passed: false, detail: expect.stringContaining("媒体服务器没有收到您的声音") });
    expect(loopbackVerdict(SOUND_DB - 1)).toMatchObject({
      passed: false,
      detail: expect.stringContaining(`过小（电平 ${SOUND_DB - 1} dB）`),
    });
    expect(loopbackVerdict(-12)).toEqual({ passed: true, detail: "媒体服务器收到了您的声音（电平 -12 dB），正在回放，请听是否清晰。" });
  });

  it("says why the microphone could not be opened, from the browser's error", () => {
    expect(microphoneProblem(new DOMException("x", "NotAllowedError"))).toMatch(/^浏览器未允许使用麦克风/);
    expect(microphoneProblem(new DOMException("x", "NotFoundError"))).toMatch(/^未找到麦克风/);
    expect(microphoneProblem(new DOMException("x", "NotReadableError"))).toMatch(/^无法打开麦克风（可能被其他程序占用）/);
  });
});
