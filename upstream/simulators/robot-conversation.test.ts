import { expect, it } from "vitest";
import { CUSTOMER_ROLE, INTENT_LABELS, codesOf } from "#contracts/codes";
import { RECORDINGS, isHandedToAgent } from "#upstream/domain/recordings";
import { CallStatus } from "#upstream/domain/dialer-states";
import { simulateCall } from "./robot-conversation";

it.each([1, 2])("every connected robot call of campaign type %i says its intent in its recording (property)", (campaignType) => {
  const intents = new Set<string>();
  for (let taskCallId = 1; taskCallId <= 2_000; taskCallId++) {
    for (const attempt of [0, 1, 2]) {
      const outcome = simulateCall(taskCallId, attempt, campaignType);
      const at = `call ${taskCallId}, attempt ${attempt}`;
      if (outcome.status !== CallStatus.complete) {
        expect(outcome.recording, at).toBeNull();
        continue;
      }
      expect(outcome.intent, at).not.toBeNull();
      expect(outcome.recording, at).not.toBeNull();
      const recording = RECORDINGS[outcome.recording!];
      const customer = recording.lines.filter((line) => line.thisRole === CUSTOMER_ROLE);
      expect(customer.at(-1)?.nluResult, at).toBe(outcome.intent);
      expect(outcome.durationMs, at).toBe(recording.durationMs);
      // A customer handed to an agent is heard talking to the agent; the others only to the robot.
      expect(
        recording.lines.some((line) => line.dialogType === 2),
        at,
      ).toBe(isHandedToAgent(campaignType, outcome.intent));
      intents.add(outcome.intent!);
    }
  }
  expect([...intents].sort()).toEqual(codesOf(INTENT_LABELS).sort());
});
