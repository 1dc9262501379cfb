import { describe, expect, it } from "vitest";
import type { PhoneSnapshot } from "#contracts/cti";
import { mixOf } from "./call-mix";

/** The asking agent's phone during a consultation. */
const phone = (state: "TALKING" | "HOLD", consult: "talking" | "conference", muted = false) =>
  ({
    agent: { state, muted },
    call: { consult: { colleague: "韩梅", sipUser: "t1u14", state: consult, asking: true } },
  }) as PhoneSnapshot;

describe("mixOf: who hears whom at the asking agent's browser", () => {
  it("consulting with the customer held: only the two agents hear each other", () => {
    expect(mixOf(phone("HOLD", "talking"))).toEqual({
      micToCustomer: 0,
      micToColleague: 1,
      customerToColleague: 0,
      colleagueToCustomer: 0,
      customerToAgent: 0,
      colleagueToAgent: 1,
    });
  });

  it("taking the customer back while the colleague is still on: the customer and the colleague do not hear each other", () => {
    expect(mixOf(phone("TALKING", "talking"))).toMatchObject({
      micToCustomer: 1,
      customerToAgent: 1,
      customerToColleague: 0,
      colleagueToCustomer: 0,
    });
  });

  it("in a conference everybody hears everybody", () => {
    expect(Object.values(mixOf(phone("TALKING", "conference")))).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it("mute silences the agent's microphone only: the customer and the colleague still hear each other", () => {
    expect(mixOf(phone("TALKING", "conference", true))).toEqual({
      micToCustomer: 0,
      micToColleague: 0,
      customerToColleague: 1,
      colleagueToCustomer: 1,
      customerToAgent: 1,
      colleagueToAgent: 1,
    });
  });

  it("hold in a conference silences the customer both ways; the agents go on talking, as when consulting", () => {
    expect(mixOf(phone("HOLD", "conference"))).toEqual(mixOf(phone("HOLD", "talking")));
  });
});
