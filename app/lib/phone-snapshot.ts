import type { PhoneSnapshot } from "#contracts/cti";

/**
 * The later of two phone states of the same agent. An action's answer can arrive after an event
 * that already moved the phone on (a call offered just as the agent went ready): every state the
 * platform enters starts at a later `since`, so the older snapshot is dropped instead of
 * silencing the ring. Changes within a state (mute, keys, a consultation) keep `since` and apply.
 */
export function laterPhone(current: PhoneSnapshot, next: PhoneSnapshot): PhoneSnapshot {
  if (Date.parse(next.agent.since) < Date.parse(current.agent.since)) return current;
  // Transcript lines only ever arrive: a line an event brought after this snapshot was taken stays.
  if (!next.call || current.call?.ctiCallId !== next.call.ctiCallId) return next;
  const known = new Set(next.call.transcript.map((line) => line.segmentId));
  const newer = current.call.transcript.filter((line) => !known.has(line.segmentId));
  if (newer.length === 0) return next;
  const transcript = [...next.call.transcript, ...newer].sort((a, b) => a.segmentId - b.segmentId);
  return { ...next, call: { ...next.call, transcript } };
}
