import { expect, it } from "vitest";
import { readSettings } from "./settings";

it("the demo runs by itself: inbound calls, chat customers and the sales team are on with the demo data", () => {
  const demo = readSettings({});
  expect([demo.seedDemo, demo.simulatedTraffic, demo.chatSimulator, demo.agentSimulator]).toEqual([true, true, true, true]);
  const quiet = readSettings({ CTI_SIMULATED_TRAFFIC: "0", CHAT_SIMULATOR: "false", AGENT_SIMULATOR: "0" });
  expect([quiet.simulatedTraffic, quiet.chatSimulator, quiet.agentSimulator]).toEqual([false, false, false]);
});

it("without the demo data no simulated calls arrive and no simulated agents work", () => {
  const production = readSettings({ SEED_DEMO: "0" });
  expect([production.seedDemo, production.simulatedTraffic, production.agentSimulator]).toEqual([false, false, false]);
});
