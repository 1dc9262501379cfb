import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { sipUserOf } from "#contracts/voice";
import type { Agent, Call } from "#upstream/cti/types";
import { VOICE_RECORDING_PREFIX } from "#upstream/domain/recordings";
import { connectPhoneLine, type LineEvent } from "./phone-line";
import { watchMediaServer } from "./media-server";
import { createTestCalls } from "./precall";
import { readRecording, removeRecording } from "./recording";
import type { VoiceSettings } from "./settings";

/** One SIP call of the phone line to an agent's softphone, for one CTI call. */
type Leg = {
  uri: string;
  tenantId: number;
  ctiCallId: string;
  agentUserId: number;
  established: boolean;
  ending: boolean;
  /** The SIP call's id (the media server knows the call by it), once established. */
  sipCallId: string;
  /** The media server did not list this call at its last look. */
  missingFromMedia: boolean;
};

const LIVE_STATES = new Set(["RINGING", "TALKING", "HOLD"]);

/**
 * Real media for the CTI's calls (decision 036). The CTI stays the brain; this follows it: when
 * an agent's phone rings for a customer's call (or a dialled customer answers), the customer's
 * phone line calls the agent's softphone through Kamailio, naming the CTI call; when the agent
 * leaves the call (hang-up, transfer, ring-out), that SIP call is hung up. A customer's line that
 * drops during an established call ends the CTI call (the customer hung up). A SIP call that never
 * connected (the agent's browser not registered) leaves the CTI call as it is, with no audio.
 */
export function startSipMedia(app: FastifyInstance, settings: VoiceSettings) {
  const legs = new Map<string, Leg>();
  /** The keys the customer's phone heard, per CTI call (the simulator tells tests). */
  const heardKeys = new Map<string, string>();
  const byAgent = new Map<number, Leg>();
  let sequence = 0;
  const line = connectPhoneLine(settings.customerControl, onLineEvent, (message) => app.log.warn(message));
  // The workbench's pre-call test calls the agent on the same line (decision 053).
  const recordingOf = (sipCallId: string) => readRecording(settings.recordingsDir, sipCallId);
  const testCalls = createTestCalls(
    settings,
    line,
    { read: recordingOf, remove: (sipCallId) => removeRecording(settings.recordingsDir, sipCallId) },
    (error, message) => app.log.error(error, message),
  );

  function end(leg: Leg) {
    leg.ending = true;
    if (byAgent.get(leg.agentUserId) === leg) byAgent.delete(leg.agentUserId);
    void line.hangup(leg.uri).catch((error) => app.log.error(error, "hanging up a SIP call failed"));
  }

  function follow(agent: Agent, call: Call | undefined) {
    const current = byAgent.get(agent.userId);
    const live = LIVE_STATES.has(agent.status.state);
    // The customer is on the line to the agent who has the call, not to a consulted colleague;
    // a dialled customer is put through once the CTI says they answered.
    const wanted =
      call && !call.ended && live && call.agentUserId === agent.userId && (call.origin !== "manual" || agent.status.state !== "RINGING");
    if (current && (!wanted || current.ctiCallId !== call.ctiCallId)) end(current);
    if (!wanted || byAgent.get(agent.userId)) return;
    const leg: Leg = {
      uri: `sip:${sipUserOf(agent.tenantId, agent.userId)}@${settings.domain};cti=${call.ctiCallId};leg=${++sequence}`,
      tenantId: agent.tenantId,
      ctiCallId: call.ctiCallId,
      agentUserId: agent.userId,
      established: false,
      ending: false,
      sipCallId: "",
      missingFromMedia: false,
    };
    legs.set(leg.uri, leg);
    byAgent.set(agent.userId, leg);
    void line.dial(leg.uri).catch((error) => app.log.error(error, "placing a SIP call failed"));
  }

  function onLineEvent(event: LineEvent) {
    if (testCalls.onLineEvent(event)) return;
    const leg = legs.get(event.uri);
    if (!leg) return;
    if (event.type === "established") [leg.established, leg.sipCallId] = [true, event.sipCallId];
    if (event.type === "dtmf") heardKeys.set(leg.ctiCallId, (heardKeys.get(leg.ctiCallId) ?? "") + event.reason);
    if (event.type !== "closed") return;
    legs.delete(leg.uri);
    if (byAgent.get(leg.agentUserId) === leg) byAgent.delete(leg.agentUserId);
    if (!leg.established) {
      if (!leg.ending) app.log.warn(`the agent's softphone did not take call ${leg.ctiCallId} (${event.reason}); it goes on without audio`);
      return;
    }
    // The line dropped while the agent talked: for the CTI, the customer hung up.
    const ended = leg.ending ? Promise.resolve() : app.cti.customerHangup(leg.tenantId, leg.ctiCallId).catch(() => undefined);
    void ended.then(() => keepRecording(leg, event.sipCallId)).catch((error) => app.log.error(error, "keeping a call's recording failed"));
  }

  /**
   * The leg's audio becomes the call record's recording (the last connected leg of a transferred
   * call wins); the simulated transcript stays, no longer timed to any audio.
   */
  async function keepRecording(leg: Leg, sipCallId: string) {
    let wav: Buffer | null = null;
    for (let attempt = 0; attempt < 100 && !wav; attempt++) {
      wav = await recordingOf(sipCallId);
      if (!wav) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (!wav) return;
    await mkdir(path.join(settings.recordingsDir, "calls"), { recursive: true });
    await writeFile(path.join(settings.recordingsDir, "calls", `${leg.ctiCallId}.wav`), wav);
    const record = await app.db
      .updateTable("call_records")
      .set({ recording: `${VOICE_RECORDING_PREFIX}${leg.ctiCallId}.wav` })
      .where("tenant_id", "=", leg.tenantId)
      .where("cti_call_id", "=", leg.ctiCallId)
      .returning("id")
      .executeTakeFirst();
    if (record) {
      await app.db
        .updateTable("call_dialogs")
        .set({ record_start_ms: null, record_end_ms: null })
        .where("tenant_id", "=", leg.tenantId)
        .where("call_record_id", "=", record.id)
        .execute();
    }
  }

  /** The kept recording of a CTI call (stereo WAV), null until its leg has ended and been written. */
  const recording = (ctiCallId: string) =>
    readFile(path.join(settings.recordingsDir, "calls", `${path.basename(ctiCallId)}.wav`)).catch(() => null);

  /**
   * What the media server carries now (null: it does not answer). A call it no longer carries (it
   * stopped, or was started again without its calls) can have no audio: it ends now, cleanly,
   * rather than go quiet. A call is judged lost when missing twice in a row, so one just ending
   * or just starting is not taken for one.
   */
  let mediaDown = false;
  function checkMedia(carried: Set<string> | null) {
    if ((carried === null) !== mediaDown) {
      mediaDown = carried === null;
      if (mediaDown) app.log.error("the media server (rtpengine) stopped answering; the calls it carried end");
      else app.log.info("the media server (rtpengine) answers again");
    }
    for (const leg of legs.values()) {
      if (!leg.established || leg.ending) continue;
      const carriedNow = carried?.has(leg.sipCallId) ?? false;
      const wasMissing = leg.missingFromMedia;
      leg.missingFromMedia = !carriedNow;
      if (carriedNow || (carried !== null && !wasMissing)) continue;
      end(leg);
      void app.cti.mediaLost(leg.tenantId, leg.ctiCallId).catch((error) => app.log.error(error, "ending a call without media failed"));
    }
  }
  const watch = settings.mediaControl ? watchMediaServer(settings.mediaControl, checkMedia) : null;

  const stopFollowing = app.cti.onAgentState(follow);
  return {
    recording,
    testCalls,
    /** The keys the customer heard on a call so far (RFC 2833 events reaching the customer's phone). */
    heardKeys: (ctiCallId: string) => heardKeys.get(ctiCallId) ?? "",
    stop() {
      stopFollowing();
      watch?.stop();
      line.close();
    },
  };
}
