import { describe, expect, it } from "vitest";
import { canDo, pickAgent, signedOut, transition, type AgentCommand, type AgentStatus } from "./agent-state";

const ACW_MS = 30_000;

function run(commands: AgentCommand[], start: AgentStatus = signedOut(0)): AgentStatus {
  return commands.reduce((status, command, i) => {
    const next = transition(status, command, (i + 1) * 1_000, ACW_MS);
    if (!next.ok) throw new Error(`${command.type}: ${next.error}`);
    return next.status;
  }, start);
}

describe("agent state machine", () => {
  it("takes a call from ready to after-call work with a timer, then back to ready", () => {
    const talking = run([{ type: "signIn" }, { type: "ready" }, { type: "offer", callId: "c1" }, { type: "answer" }]);
    expect(talking).toMatchObject({ state: "TALKING", callId: "c1" });
    const acw = transition(talking, { type: "end" }, 10_000, ACW_MS);
    expect(acw.ok && acw.status).toMatchObject({ state: "ACW", callId: "c1", acwEndsAt: 40_000 });
    const ready = acw.ok && transition(acw.status, { type: "acwDone" }, 40_000, ACW_MS);
    expect(ready && ready.ok && ready.status).toMatchObject({ state: "READY", callId: null, acwEndsAt: null, idleSince: 40_000 });
    // A queue that leaves the end to the agent: no end time.
    const manual = transition(talking, { type: "end" }, 10_000, null);
    expect(manual.ok && manual.status).toMatchObject({ state: "ACW", callId: "c1", acwEndsAt: null });
  });

  it("signs in not ready, and not ready needs one of the named reasons", () => {
    const signedIn = run([{ type: "signIn" }]);
    expect(signedIn.state).toBe("NOT_READY");
    expect(transition(signedIn, { type: "notReady", reason: "NAP" }, 1, ACW_MS)).toEqual({ ok: false, error: "请选择未就绪原因" });
    expect(run([{ type: "notReady", reason: "MEAL" }], signedIn)).toMatchObject({ state: "NOT_READY", reason: "MEAL" });
  });

  it("refuses what the state does not allow, naming the state", () => {
    const ready = run([{ type: "signIn" }, { type: "ready" }]);
    expect(transition(ready, { type: "answer" }, 5, ACW_MS)).toEqual({ ok: false, error: "当前状态（就绪）不能执行该操作" });
    const talking = run([{ type: "offer", callId: "c" }, { type: "answer" }], ready);
    expect(transition(talking, { type: "signOut" }, 9, ACW_MS).ok).toBe(false);
    expect(canDo("HOLD", "mute")).toBe(false);
    expect(canDo("HOLD", "resume")).toBe(true);
  });

  it("holds, resumes and mutes; ending a call clears mute", () => {
    const talking = run([{ type: "signIn" }, { type: "ready" }, { type: "offer", callId: "c" }, { type: "answer" }]);
    const muted = run([{ type: "mute" }], talking);
    expect(muted.muted).toBe(true);
    expect(run([{ type: "hold" }, { type: "resume" }, { type: "end" }], muted)).toMatchObject({ state: "ACW", muted: false });
  });

  it("a dropped ring returns the agent to where they were", () => {
    const notReady = run([{ type: "signIn" }, { type: "notReady", reason: "TRAINING" }]);
    expect(run([{ type: "dial", callId: "d" }, { type: "drop" }], notReady)).toMatchObject({
      state: "NOT_READY",
      reason: "TRAINING",
      callId: null,
    });
    const ready = run([{ type: "ready" }], notReady);
    expect(run([{ type: "offer", callId: "o" }, { type: "drop" }], ready)).toMatchObject({ state: "READY", callId: null });
  });

  it("an offered call that rings out leaves the agent not ready (未接来电), a reason no agent may choose", () => {
    const ready = run([{ type: "signIn" }, { type: "ready" }]);
    expect(run([{ type: "offer", callId: "o" }, { type: "missed" }], ready)).toMatchObject({
      state: "NOT_READY",
      reason: "MISSED",
      callId: null,
    });
    expect(transition(ready, { type: "missed" }, 5, ACW_MS).ok).toBe(false);
    expect(transition(ready, { type: "notReady", reason: "MISSED" }, 5, ACW_MS)).toEqual({ ok: false, error: "请选择未就绪原因" });
  });
});

describe("routing", () => {
  const agents = [
    { userId: 3, idleSince: 500 },
    { userId: 1, idleSince: 900 },
    { userId: 2, idleSince: 100 },
  ];
  it("offers the agent idle longest", () => {
    expect(pickAgent(agents, "longestIdle", null)).toBe(2);
  });
  it("goes round the ready agents in turn, wrapping", () => {
    expect(pickAgent(agents, "roundRobin", null)).toBe(1);
    expect(pickAgent(agents, "roundRobin", 1)).toBe(2);
    expect(pickAgent(agents, "roundRobin", 3)).toBe(1);
  });
  it("offers nobody when nobody is ready", () => {
    expect(pickAgent([], "roundRobin", 1)).toBeNull();
  });
});
