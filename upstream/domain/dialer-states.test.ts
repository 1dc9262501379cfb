import { describe, expect, it } from "vitest";
import { BATCH_STATUSES, CALL_STATUSES, CAMPAIGN_STATES, codesOf } from "#contracts/codes";
import {
  BATCH_TRANSITIONS,
  CALL_TRANSITIONS,
  CAMPAIGN_TRANSITIONS,
  IllegalTransition,
  batchMove,
  campaignStateEffects,
  cstMinuteOfDay,
  decideBatch,
  dialCapacity,
  inWindow,
  laterWindowToday,
  nextWindowStart,
  type BatchSituation,
} from "./dialer-states";

/** A small seeded generator (mulberry32) so a failing case can be replayed from its seed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(next: () => number, items: readonly T[]) => items[Math.floor(next() * items.length)];

describe("the state tables", () => {
  it("cover exactly the codes of contracts/codes.ts", () => {
    expect(Object.keys(BATCH_TRANSITIONS).map(Number).sort()).toEqual(codesOf(BATCH_STATUSES).sort());
    expect(Object.keys(CALL_TRANSITIONS).map(Number).sort()).toEqual(codesOf(CALL_STATUSES).sort());
    expect(Object.keys(CAMPAIGN_TRANSITIONS).map(Number).sort()).toEqual(codesOf(CAMPAIGN_STATES).sort());
    for (const table of [BATCH_TRANSITIONS, CALL_TRANSITIONS, CAMPAIGN_TRANSITIONS]) {
      for (const targets of Object.values(table)) for (const to of targets) expect(Object.keys(table).map(Number)).toContain(to);
    }
  });

  it("refuse moves out of the terminal states", () => {
    for (const from of [4, 5, 6]) for (const to of codesOf(BATCH_STATUSES)) expect(() => batchMove(from, to)).toThrow(IllegalTransition);
    expect(() => batchMove(2, 13)).toThrow(IllegalTransition);
    expect(batchMove(13, 2)).toBe(2);
  });

  it("a user's state change only moves batches along the table", () => {
    for (const to of codesOf(CAMPAIGN_STATES)) {
      const effects = campaignStateEffects(to);
      if (!effects) continue;
      for (const from of effects.batchesFrom) expect(BATCH_TRANSITIONS[from]).toContain(effects.batchTo);
      if (effects.callTo !== null) for (const from of effects.callsFrom) expect(CALL_TRANSITIONS[from]).toContain(effects.callTo);
    }
  });
});

describe("decideBatch", () => {
  it("never proposes an illegal transition (property, 20,000 random situations)", () => {
    const next = random(20261122);
    for (let i = 0; i < 20_000; i++) {
      const situation: BatchSituation = {
        status: pick(next, codesOf(BATCH_STATUSES)),
        cycle: pick(next, [1, 2, 3]),
        inWindow: next() < 0.5,
        laterWindowToday: next() < 0.5,
        expired: next() < 0.2,
        due: next() < 0.5,
        total: pick(next, [0, 1, 10]),
        open: pick(next, [0, 0, 3]),
        retryable: pick(next, [0, 0, 2]),
      };
      const decision = decideBatch(situation);
      if (decision) expect(BATCH_TRANSITIONS[situation.status], JSON.stringify(situation)).toContain(decision.to);
    }
  });

  it("random walks of ticks and user moves stay inside the table and end in a terminal state", () => {
    const next = random(7);
    for (let walk = 0; walk < 500; walk++) {
      let status = 13;
      let open = 1 + Math.floor(next() * 5);
      for (let step = 0; step < 200 && ![4, 5, 6].includes(status); step++) {
        const userMove = next() < 0.1 ? campaignStateEffects(pick(next, [1, 2, 4])) : null;
        if (userMove) {
          if (userMove.batchesFrom.includes(status)) status = batchMove(status, userMove.batchTo);
          continue;
        }
        if (status === 3) continue;
        const decision = decideBatch({
          status,
          cycle: pick(next, [1, 2, 3]),
          inWindow: next() < 0.7,
          laterWindowToday: next() < 0.5,
          expired: step > 150,
          due: true,
          total: 5,
          open,
          retryable: 0,
        });
        if (decision) status = batchMove(status, decision.to);
        if (status === 2 && open > 0 && next() < 0.5) open--;
      }
      expect([2, 3, 4, 5, 6, 11, 12]).toContain(status);
    }
  });

  it("prepares, schedules, rests between windows, times out a same-day batch and completes", () => {
    const base: BatchSituation = {
      status: 13,
      cycle: 3,
      inWindow: true,
      laterWindowToday: false,
      expired: false,
      due: true,
      total: 3,
      open: 3,
      retryable: 0,
    };
    expect(decideBatch(base)?.to).toBe(2);
    expect(decideBatch({ ...base, total: 0 })?.to).toBe(14);
    expect(decideBatch({ ...base, status: 2 })).toBeNull();
    expect(decideBatch({ ...base, status: 2, inWindow: false })?.to).toBe(11);
    expect(decideBatch({ ...base, status: 2, inWindow: false, cycle: 1 })?.to).toBe(5);
    expect(decideBatch({ ...base, status: 2, inWindow: false, cycle: 2 })?.to).toBe(12);
    expect(decideBatch({ ...base, status: 11 })?.to).toBe(2);
    expect(decideBatch({ ...base, status: 12, due: false })).toBeNull();
    expect(decideBatch({ ...base, status: 2, open: 0 })?.to).toBe(4);
    expect(decideBatch({ ...base, status: 2, open: 0, retryable: 1 })).toBeNull();
    expect(decideBatch({ ...base, status: 11, expired: true })?.to).toBe(5);
    expect(decideBatch({ ...base, status: 3 })).toBeNull();
  });
});

describe("calling windows (China Standard Time)", () => {
  const windows = [
    { start: "09:00", end: "12:00" },
    { start: "13:30", end: "18:00" },
  ];
  const cst = (hhmm: string) => new Date(`2026-11-20T${hhmm}:00+08:00`);
  it("knows when a call may be made", () => {
    expect(cstMinuteOfDay(cst("09:30"))).toBe(570);
    expect(inWindow(windows, cst("09:00"))).toBe(true);
    expect(inWindow(windows, cst("12:00"))).toBe(false);
    expect(inWindow(windows, cst("13:45"))).toBe(true);
    expect(laterWindowToday(windows, cst("12:30"))).toBe(true);
    expect(laterWindowToday(windows, cst("14:00"))).toBe(false);
    expect(nextWindowStart(windows, cst("12:30"))?.toISOString()).toBe(cst("13:30").toISOString());
    expect(nextWindowStart(windows, cst("19:00"))?.toISOString()).toBe(new Date("2026-11-21T09:00:00+08:00").toISOString());
  });
  it("dials as many new calls as the ratio allows", () => {
    expect(dialCapacity(1, 0)).toBe(5);
    expect(dialCapacity(2, 3)).toBe(7);
    expect(dialCapacity(0.5, 5)).toBe(0);
  });
});
