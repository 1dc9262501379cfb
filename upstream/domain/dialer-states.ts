/**
 * The dialer's state machines, pure (spec §4 leaves the transitions open; these are ours).
 * Batch, call and campaign states each have a table of legal moves; every change the platform
 * makes goes through `batchMove`/`callMove`/`campaignMove`, which throw on an illegal one, and the
 * decisions below only ever propose moves from the tables (dialer-states.test.ts proves it).
 */
import type { CallingWindow } from "#upstream/db/schema";
import { cstDate, cstMinuteOfDay, startOfCstDay } from "#common/china-time";

export const BatchStatus = {
  scheduling: 2,
  paused: 3,
  complete: 4,
  timedOut: 5,
  cancelled: 6,
  restingWindow: 11,
  restingCycle: 12,
  preparing: 13,
  prepareFailed: 14,
} as const;
export const CallStatus = {
  waiting: 0,
  dialling: 1,
  notConnected: 2,
  complete: 3,
  cancelledBatch: 4,
  abnormal: 5,
  blacklisted: 6,
  cancelledSchedule: 7,
} as const;
export const CampaignState = { notStarted: 0, running: 1, paused: 2, complete: 3, cancelled: 4 } as const;

const B = BatchStatus;
export const BATCH_TRANSITIONS: Readonly<Record<number, readonly number[]>> = {
  [B.preparing]: [B.scheduling, B.prepareFailed, B.restingWindow, B.restingCycle, B.paused, B.cancelled, B.timedOut],
  [B.prepareFailed]: [B.preparing, B.cancelled],
  [B.scheduling]: [B.restingWindow, B.restingCycle, B.paused, B.complete, B.timedOut, B.cancelled],
  [B.restingWindow]: [B.scheduling, B.restingCycle, B.paused, B.timedOut, B.cancelled],
  [B.restingCycle]: [B.scheduling, B.restingWindow, B.paused, B.timedOut, B.cancelled],
  [B.paused]: [B.preparing, B.scheduling, B.timedOut, B.cancelled],
  [B.complete]: [],
  [B.timedOut]: [],
  [B.cancelled]: [],
};

const C = CallStatus;
export const CALL_TRANSITIONS: Readonly<Record<number, readonly number[]>> = {
  [C.waiting]: [C.dialling, C.notConnected, C.cancelledBatch, C.blacklisted, C.cancelledSchedule],
  [C.dialling]: [C.notConnected, C.complete, C.abnormal],
  // Not connected or abnormal calls are dialled again while attempts remain.
  [C.notConnected]: [C.waiting, C.cancelledBatch, C.cancelledSchedule],
  [C.abnormal]: [C.waiting, C.cancelledBatch, C.cancelledSchedule],
  [C.complete]: [],
  [C.cancelledBatch]: [],
  [C.blacklisted]: [],
  [C.cancelledSchedule]: [],
};

const S = CampaignState;
export const CAMPAIGN_TRANSITIONS: Readonly<Record<number, readonly number[]>> = {
  [S.notStarted]: [S.running, S.cancelled],
  [S.running]: [S.paused, S.complete, S.cancelled],
  [S.paused]: [S.running, S.cancelled],
  [S.complete]: [],
  [S.cancelled]: [],
};

/** Batches the dialer works on while their campaign runs. */
export const ACTIVE_BATCH = [B.preparing, B.scheduling, B.restingWindow, B.restingCycle] as const;

export class IllegalTransition extends Error {}

function move(table: Readonly<Record<number, readonly number[]>>, what: string, from: number, to: number): number {
  if (!(table[from] ?? []).includes(to)) throw new IllegalTransition(`${what} ${from} → ${to} is not allowed`);
  return to;
}
export const batchMove = (from: number, to: number) => move(BATCH_TRANSITIONS, "batch", from, to);
export const callMove = (from: number, to: number) => move(CALL_TRANSITIONS, "call", from, to);
export const campaignMove = (from: number, to: number) => move(CAMPAIGN_TRANSITIONS, "campaign", from, to);

/** Calling windows and dates are in China Standard Time (china-time.ts). */
export { cstDate, cstMinuteOfDay };
const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

export function inWindow(windows: readonly CallingWindow[], at: Date): boolean {
  const minute = cstMinuteOfDay(at);
  return windows.some((w) => minute >= minutesOf(w.start) && minute < minutesOf(w.end));
}

/** The start of the next window after `at` (today or the next day); null without windows. */
export function nextWindowStart(windows: readonly CallingWindow[], at: Date): Date | null {
  if (windows.length === 0) return null;
  const minute = cstMinuteOfDay(at);
  const dayStart = startOfCstDay(at).getTime();
  const starts = windows.map((w) => minutesOf(w.start)).sort((a, b) => a - b);
  const later = starts.find((s) => s > minute);
  return new Date(dayStart + (later ?? starts[0] + 1440) * 60_000);
}

/** A later window still comes today. */
export function laterWindowToday(windows: readonly CallingWindow[], at: Date): boolean {
  const minute = cstMinuteOfDay(at);
  return windows.some((w) => minutesOf(w.start) > minute);
}

/** What the dialer knows about a batch at one tick. */
export type BatchSituation = {
  status: number;
  cycle: number; // SCHEDULE_CYCLES: 1 same day, 2 periodic, 3 long-term
  inWindow: boolean;
  laterWindowToday: boolean;
  /** Past the campaign's end date (or, for a same-day batch, past the day it started). */
  expired: boolean;
  /** The periodic run's time has come (cycle 2 in 12). */
  due: boolean;
  total: number;
  /** Calls still waiting or dialling. */
  open: number;
  /** Finished calls that may be dialled again. */
  retryable: number;
};

/**
 * The batch's next status at a tick while its campaign runs, or null to stay. Pausing, resuming
 * and cancelling are the user's moves (see `campaignStateEffects`), not decided here.
 */
export function decideBatch(s: BatchSituation): { to: number; reason: string } | null {
  if (s.status === B.preparing) {
    if (s.total === 0) return { to: B.prepareFailed, reason: "名单为空，准备失败" };
    return { to: B.scheduling, reason: "名单准备完成" };
  }
  if (s.status !== B.scheduling && s.status !== B.restingWindow && s.status !== B.restingCycle) return null;
  if (s.expired) return { to: B.timedOut, reason: "超出调度时间" };
  if (s.status === B.scheduling) {
    if (s.open === 0 && s.retryable === 0) return { to: B.complete, reason: "名单已全部呼叫" };
    if (s.inWindow) return null;
    if (s.cycle === 2) return { to: B.restingCycle, reason: "本周期时段结束，等待下一周期" };
    if (s.cycle === 1 && !s.laterWindowToday) return { to: B.timedOut, reason: "当天时段已结束" };
    return { to: B.restingWindow, reason: "时段间隔休息" };
  }
  if (s.status === B.restingCycle) return s.due && s.inWindow ? { to: B.scheduling, reason: "周期时间已到" } : null;
  return s.inWindow ? { to: B.scheduling, reason: "进入外呼时段" } : null;
}

/** How many new calls a batch may start at a tick: the campaign's ratio times its lines. */
export const LINES_PER_BATCH = 5;
export function dialCapacity(ratio: number, dialling: number): number {
  return Math.max(0, Math.ceil(ratio * LINES_PER_BATCH) - dialling);
}

/** What a user's campaign state change does to its batches. */
export function campaignStateEffects(
  to: number,
): { batchesFrom: readonly number[]; batchTo: number; callsFrom: readonly number[]; callTo: number | null } | null {
  if (to === S.paused)
    return { batchesFrom: [B.preparing, B.scheduling, B.restingWindow, B.restingCycle], batchTo: B.paused, callsFrom: [], callTo: null };
  if (to === S.running) return { batchesFrom: [B.paused], batchTo: B.scheduling, callsFrom: [], callTo: null };
  if (to === S.cancelled) {
    return {
      batchesFrom: [B.preparing, B.prepareFailed, B.scheduling, B.restingWindow, B.restingCycle, B.paused],
      batchTo: B.cancelled,
      callsFrom: [C.waiting, C.notConnected, C.abnormal],
      callTo: C.cancelledBatch,
    };
  }
  return null;
}
