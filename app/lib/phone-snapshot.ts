import type { PhoneSnapshot } from "../../contracts/cti";

/**
 * The later of two phone states of the same agent. An action's answer can arrive after an event
 * that already moved the phone on (a call offered just as the agent went ready): every state the
 * platform enters starts at a later `since`, so the older snapshot is dropped instead of
 * silencing the ring. Changes within a state (mute, keys, a consultation) keep `since` and apply.
 */
export function laterPhone(current: PhoneSnapshot, next: PhoneSnapshot): PhoneSnapshot {
  return Date.parse(next.agent.since) >= Date.parse(current.agent.since) ? next : current;
}
