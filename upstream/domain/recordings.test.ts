import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CAMPAIGN_TYPES, CUSTOMER_ROLE, INTENT_LABELS, codesOf } from "#contracts/codes";
import {
  INTERESTED_INTENTS,
  RECORDINGS,
  RECORDING_NAMES,
  conclusionFor,
  recordingFor,
  recordingPath,
  type RecordingName,
} from "./recordings";

const INTENTS = codesOf(INTENT_LABELS);
const lastCustomerIntent = (name: RecordingName) => RECORDINGS[name].lines.filter((l) => l.thisRole === CUSTOMER_ROLE).at(-1)?.nluResult;
const dialogTypes = (name: RecordingName) => RECORDINGS[name].lines.map((l) => l.dialogType);

/** Bit rate (kbit/s) from the first MPEG audio frame header (MPEG-1 or 2, layer III). */
function bitrateOf(mp3: Buffer): number {
  expect(mp3[0]).toBe(0xff);
  const mpeg1 = ((mp3[1] >> 3) & 3) === 3;
  const table = mpeg1
    ? [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
    : [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
  return table[mp3[2] >> 4];
}

describe("robot call recordings", () => {
  it.each([1, 2])("campaign type %i: the customer's last line of each intent's recording is that intent", (campaignType) => {
    for (const intent of INTENTS) expect(lastCustomerIntent(recordingFor(campaignType, intent)), intent).toBe(intent);
  });

  it("robot calls end with the robot; collaborative customers who are interested go on with an agent", () => {
    for (const intent of INTENTS) {
      expect(
        dialogTypes(recordingFor(1, intent)).every((t) => t === 1),
        intent,
      ).toBe(true);
      const handedOff = recordingFor(2, intent);
      if (!INTERESTED_INTENTS.has(intent)) {
        expect(
          dialogTypes(handedOff).every((t) => t === 1),
          intent,
        ).toBe(true);
        continue;
      }
      // The robot's part (dialogType 1), then the agent's (dialogType 2, with the agent speaking).
      const types = dialogTypes(handedOff);
      expect(types[0]).toBe(1);
      expect(types.at(-1)).toBe(2);
      expect([...types].sort()).toEqual(types);
      expect(
        RECORDINGS[handedOff].lines.some((l) => l.dialogType === 2 && l.thisRole === 2),
        intent,
      ).toBe(true);
    }
  });

  it("inbound and human-only calls keep their recordings whatever the intent", () => {
    const humanOnly = codesOf(CAMPAIGN_TYPES).filter((t) => t !== 1 && t !== 2 && t !== 20);
    for (const intent of [...INTENTS, null]) {
      expect(recordingFor(20, intent)).toBe("inbound-enquiry.mp3");
      for (const campaignType of humanOnly) expect(recordingFor(campaignType, intent)).toBe("transfer-to-agent.mp3");
    }
  });

  it("each intent has its own conclusion; a call without one did not get through", () => {
    const conclusions = INTENTS.map(conclusionFor);
    expect(conclusions.every((c) => /^客户.+/.test(c))).toBe(true);
    expect(new Set(conclusions).size).toBe(INTENTS.length);
    expect(conclusionFor(null)).toBe("未接通");
  });

  it("every transcript is timed in order within its audio, and the audio lasts as long", () => {
    for (const name of RECORDING_NAMES) {
      const { durationMs, lines } = RECORDINGS[name];
      let at = 0;
      for (const line of lines) {
        expect(line.startMs, name).toBeGreaterThanOrEqual(at);
        expect(line.endMs, name).toBeGreaterThan(line.startMs);
        at = line.endMs;
      }
      expect(at, name).toBeLessThanOrEqual(durationMs);
      // Constant bit rate: the file's length gives the audio's (give or take the encoder's padding).
      const mp3 = readFileSync(recordingPath(name));
      expect(Math.abs((mp3.length * 8) / bitrateOf(mp3) - durationMs), name).toBeLessThan(250);
    }
  });

  it("the recordings stay small", () => {
    const dir = path.dirname(recordingPath(RECORDING_NAMES[0]));
    const mp3s = readdirSync(dir).filter((f) => f.endsWith(".mp3"));
    expect(mp3s.sort()).toEqual([...RECORDING_NAMES].sort());
    const bytes = mp3s.reduce((sum, f) => sum + statSync(path.join(dir, f)).size, 0);
    expect(bytes).toBeLessThan(1_500_000);
  });
});
