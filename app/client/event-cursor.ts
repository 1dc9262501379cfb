import type { RealtimeNotification } from "#contracts/events";

/**
 * The client's place in its event stream: events are numbered, so one already seen (a replay
 * overlapping what arrived live) is dropped and the newest id is where a reconnect resumes.
 */
export function createEventCursor(start: number) {
  let last = start;
  return {
    get lastId() {
      return last;
    },
    /** True when the event is new and should be handled. */
    accept(event: RealtimeNotification): boolean {
      if (event.id <= last) return false;
      last = event.id;
      return true;
    },
  };
}
