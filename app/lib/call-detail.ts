/**
 * Rules of the call-detail dialog (spec §2, §5, §9), pure so that server, player and tests share them.
 */
import type { CallingResult } from "#contracts/contact";
import { maskDialogue, maskPhone } from "./format";

/** Spec §9: the call-detail dialog is 678px wide, its tables at most 508px high. */
export const DIALOG_WIDTH_PX = 678;
export const TABLE_MAX_HEIGHT_PX = 508;

/**
 * The id of a call list row's 查看 link. The dialog's 关闭 names it as its fragment, so that the
 * list comes back with focus on the link that opened the dialog (Chromium focuses a focusable
 * fragment target; other browsers start the next Tab there).
 */
export const callLinkId = (callId: number | string) => `call-${callId}`;

export const DETAIL_TABS = [
  { key: "call", label: "查看通话" },
  { key: "state", label: "输出状态" },
  { key: "params", label: "查看入参" },
] as const;
export type DetailTabKey = (typeof DETAIL_TABS)[number]["key"];
export type DetailTab = { key: DetailTabKey; label: string; enabled: boolean };

/**
 * Output state and input parameters appear only when the task has groupDn or dn; the conversation
 * is available when callResult is 200 or 502, the output state only when it is 200.
 */
export function detailTabs(detail: { groupDn: string | null; dn: string | null; callResult: number }): DetailTab[] {
  const hasDn = Boolean(detail.groupDn || detail.dn);
  return DETAIL_TABS.filter((tab) => tab.key === "call" || hasDn).map((tab) => ({
    ...tab,
    enabled:
      tab.key === "call" ? detail.callResult === 200 || detail.callResult === 502 : tab.key === "state" ? detail.callResult === 200 : true,
  }));
}

/** The tab to show: the one asked for when it exists and is enabled, otherwise the first enabled. */
export function chooseTab(tabs: DetailTab[], asked: string | null): DetailTab | undefined {
  return tabs.find((tab) => tab.key === asked && tab.enabled) ?? tabs.find((tab) => tab.enabled);
}

/** Playback speed: 1 to 2 in steps of 0.1, default 1, stored per agent (spec §5, §9). */
export const SPEED = { min: 1, max: 2, step: 0.1, default: 1 } as const;
export const SPEED_HINT = "可设置1-2之间播放倍速，如1.5";
export const speedKey = (agentId: number | string) => `agent-speed-${agentId}`;

/** Any input as a valid speed: clamped to 1–2 and rounded to the 0.1 step; junk is the default. */
export function clampSpeed(value: unknown): number {
  const n = typeof value === "number" ? value : Number.parseFloat(String(value ?? ""));
  if (!Number.isFinite(n)) return SPEED.default;
  return Math.round(Math.min(SPEED.max, Math.max(SPEED.min, n)) * 10) / 10;
}

/** The index of the line being played at `ms`, or -1. */
export function lineAt(lines: ReadonlyArray<{ recordStartTime: number | null; recordEndTime: number | null }>, ms: number): number {
  return lines.findIndex((l) => l.recordStartTime !== null && l.recordEndTime !== null && ms >= l.recordStartTime && ms < l.recordEndTime);
}

/** Spec §8 texts of the recording export and of a line without a recording position. */
export const RECORDING_EXPORTED_TEXT = "导出录音成功!";
export const NO_RECORDING_TEXT = "暂无录音可下载";
export const UNSUPPORTED_TEXT = "暂不支持";

/**
 * A call as a hydrating page may send it to the browser: its number and its dialogue masked as the
 * screen shows them (spec §9), so that the page's data holds no more than the page.
 */
export function maskedForBrowser<T extends { phone: string; callingResults?: CallingResult[] }>(call: T): T {
  return {
    ...call,
    phone: maskPhone(call.phone),
    ...(call.callingResults
      ? {
          callingResults: call.callingResults.map((section) => ({
            ...section,
            dialogResults: section.dialogResults.map((line) => ({ ...line, dialogContent: maskDialogue(line.dialogContent) })),
          })),
        }
      : {}),
  };
}
