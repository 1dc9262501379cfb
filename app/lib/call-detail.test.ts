import { describe, expect, it } from "vitest";
import { chooseTab, clampSpeed, detailTabs, lineAt, maskedForBrowser, speedKey } from "./call-detail";

const tabsOf = (callResult: number, dn: string | null = "8001", groupDn: string | null = null) =>
  detailTabs({ callResult, dn, groupDn }).map((t) => `${t.label}${t.enabled ? "" : "(disabled)"}`);

describe("call-detail tabs (spec §2)", () => {
  it("shows output state and input parameters only with groupDn or dn", () => {
    expect(tabsOf(200, null, null)).toEqual(["查看通话"]);
    expect(tabsOf(200, "8001", null)).toEqual(["查看通话", "输出状态", "查看入参"]);
    expect(tabsOf(200, null, "grp")).toEqual(["查看通话", "输出状态", "查看入参"]);
  });
  it("enables the conversation for 200 and 502, the output state for 200 only", () => {
    expect(tabsOf(502)).toEqual(["查看通话", "输出状态(disabled)", "查看入参"]);
    expect(tabsOf(486)).toEqual(["查看通话(disabled)", "输出状态(disabled)", "查看入参"]);
  });
  it("falls back to the first enabled tab", () => {
    const tabs = detailTabs({ callResult: 486, dn: "1", groupDn: null });
    expect(chooseTab(tabs, "call")?.key).toBe("params");
    expect(chooseTab(tabs, "nonsense")?.key).toBe("params");
    expect(chooseTab(detailTabs({ callResult: 486, dn: null, groupDn: null }), "call")).toBeUndefined();
    expect(chooseTab(detailTabs({ callResult: 200, dn: "1", groupDn: null }), "state")?.key).toBe("state");
  });
});

describe("playback speed (spec §5, §9)", () => {
  it("is limited to 1–2 in steps of 0.1, default 1", () => {
    expect(clampSpeed(1.5)).toBe(1.5);
    expect(clampSpeed("1.55")).toBe(1.6);
    expect(clampSpeed(0.5)).toBe(1);
    expect(clampSpeed(3)).toBe(2);
    expect(clampSpeed("abc")).toBe(1);
    expect(clampSpeed(null)).toBe(1);
  });
  it("is stored per agent", () => {
    expect(speedKey(7)).toBe("agent-speed-7");
  });
});

describe("lineAt", () => {
  it("finds the line being played", () => {
    const lines = [
      { recordStartTime: 0, recordEndTime: 1000 },
      { recordStartTime: null, recordEndTime: null },
      { recordStartTime: 1500, recordEndTime: 3000 },
    ];
    expect(lineAt(lines, 500)).toBe(0);
    expect(lineAt(lines, 1200)).toBe(-1);
    expect(lineAt(lines, 2000)).toBe(2);
  });
});

describe("a call as a hydrating page sends it (spec §9)", () => {
  it("masks the number and every dialogue line, and keeps the rest", () => {
    const line = {
      thisRole: 1,
      dialogContent: "王先生，订单号是20261115",
      nluResult: null,
      gender: 1,
      recordStartTime: 0,
      recordEndTime: 900,
    };
    const call = { callId: 7, phone: "+8613322457470", callingResults: [{ dialogType: 1, dialogResults: [line] }] };
    expect(maskedForBrowser(call)).toEqual({
      callId: 7,
      phone: "+86133****7470",
      callingResults: [{ dialogType: 1, dialogResults: [{ ...line, dialogContent: "*先生，订单号是********" }] }],
    });
    expect(maskedForBrowser({ phone: "13800000000", callId: 8 })).toEqual({ phone: "138****0000", callId: 8 });
  });
});
