import { describe, expect, it } from "vitest";
import { OUTCOME_CODES, RESULT_CODES, codesOf, labelOf } from "#contracts/codes";
import { outcomeFor } from "./outcomes";

const facts = (campaignType: number, callResult: number, intent: string | null, agentTookHandOff = true) => ({
  campaignType,
  callResult,
  intent,
  agentTookHandOff,
});
const label = (code: string | null) => (code === null ? null : labelOf(OUTCOME_CODES, code));

describe("a call's outcome code agrees with what happened on it", () => {
  it("never says a call that did not connect was answered", () => {
    for (const type of [1, 2, 3, 4, 5]) {
      for (const result of codesOf(RESULT_CODES).filter((code) => code !== 200)) {
        for (let variant = 0; variant < 6; variant++) {
          expect(["未接听", "客户放弃", "坐席放弃（直呼人工）", "呼损（机器人溢出）"]).toContain(
            label(outcomeFor(facts(type, result, null), variant)),
          );
        }
      }
    }
    expect(outcomeFor(facts(1, 502, null))).toBe("RobotNoAnswer");
    expect(outcomeFor(facts(2, 408, null))).toBe("NoAnswer");
  });

  it("says 无意向 when the customer said no, and a 转人工 loss when no agent took an interested customer", () => {
    for (const type of [1, 2, 3]) expect(outcomeFor(facts(type, 200, "NO_INTENTION"))).toBe("NoIntention");
    expect(outcomeFor(facts(2, 200, "CONFIRM", true))).toBe("EndOfTheCall");
    expect(["ToHumanNoAnswer", "ToHumanGiveUp"]).toContain(outcomeFor(facts(2, 200, "CONFIRM", false), 1));
    expect(outcomeFor(facts(1, 200, "CONFIRM", false))).toBe("EndOfTheCall");
  });

  it("gives inbound calls no outbound outcome, and every code some call", () => {
    expect(outcomeFor(facts(20, 200, "CONFIRM"))).toBeNull();
    const seen = new Set<string | null>();
    for (const type of [1, 2, 3]) {
      for (const result of [200, 408, 502]) {
        for (const intent of ["CONFIRM", "NO_INTENTION"]) {
          for (const took of [true, false])
            for (let variant = 0; variant < 4; variant++) seen.add(outcomeFor(facts(type, result, intent, took), variant));
        }
      }
    }
    expect([...seen].sort()).toEqual([...codesOf(OUTCOME_CODES)].sort());
  });
});
