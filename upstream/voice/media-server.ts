import { createSocket } from "node:dgram";

/** How many unanswered asks in a row mean the media server is gone. */
const MISSED_TO_LOSE = 2;

/** The call ids in rtpengine's answer to `list` (bencoded: `d5:callsl<len>:<id>...e6:result2:oke`), null if it is not one. */
export function callsInListAnswer(answer: string): Set<string> | null {
  const start = answer.indexOf("5:callsl");
  if (start < 0 || !answer.includes("6:result2:ok")) return null;
  const calls = new Set<string>();
  let at = start + "5:callsl".length;
  while (answer[at] !== "e") {
    const colon = answer.indexOf(":", at);
    const length = Number(answer.slice(at, colon));
    if (colon < 0 || !Number.isInteger(length)) return null;
    calls.add(answer.slice(colon + 1, colon + 1 + length));
    at = colon + 1 + length;
  }
  return calls;
}

/**
 * Watches rtpengine through its control protocol (ng, bencoded over UDP). Kamailio only talks to
 * it when a call starts or ends, so without this nobody would notice a media server that stopped
 * mid-call, or was started again without the calls it carried: the audio would just go quiet.
 * Every `intervalMs` it asks for the calls the server carries and tells `onCalls` their SIP call
 * ids, or null once it has not answered twice in a row (it is gone).
 */
export function watchMediaServer(control: string, onCalls: (carried: Set<string> | null) => void, intervalMs = 1_000) {
  const colon = control.lastIndexOf(":");
  const [host, port] = [control.slice(0, colon), Number(control.slice(colon + 1))];
  const socket = createSocket("udp4");
  socket.unref();
  let sequence = 0;
  let missed = 0;
  socket.on("message", (message) => {
    const text = message.toString();
    // Only the answer to the latest ask counts: an older one may predate calls that started since.
    if (!text.startsWith(`${sequence}_watch `)) return;
    const carried = callsInListAnswer(text);
    if (!carried) return;
    missed = -1;
    onCalls(carried);
  });
  // A stopped server's port answers with ICMP "unreachable", which Node reports as an error.
  socket.on("error", () => undefined);

  const timer = setInterval(() => {
    missed += 1;
    if (missed >= MISSED_TO_LOSE) onCalls(null);
    socket.send(`${++sequence}_watch d7:command4:liste`, port, host);
  }, intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      socket.close();
    },
  };
}
