import { connect, type Socket } from "node:net";

/** What the phone line reports about one of its calls (baresip's events, by the URI it dialled). */
export type LineEvent = {
  type: "ringing" | "established" | "dtmf" | "closed";
  uri: string;
  /** Why a call closed; the key a DTMF event heard. */
  reason: string;
  sipCallId: string;
};

type BaresipMessage = {
  event?: boolean;
  response?: boolean;
  type?: string;
  peeruri?: string;
  /** The SIP Call-ID (rtpengine names the call's recording after it). */
  id?: string;
  param?: string;
  data?: string;
  token?: string;
};

const EVENT_TYPES: Record<string, LineEvent["type"] | undefined> = {
  CALL_RINGING: "ringing",
  CALL_ESTABLISHED: "established",
  CALL_DTMF_START: "dtmf",
  CALL_CLOSED: "closed",
};

/**
 * The simulated customers' phone line: one baresip process placing many calls, driven through
 * its ctrl_tcp module (netstring-framed JSON commands, answers and events). Commands go one at a
 * time, so a call picked by `line` is still the one hung up by the next command.
 */
export function connectPhoneLine(address: string, onEvent: (event: LineEvent) => void, log: (message: string) => void) {
  const [host, port] = address.split(":");
  let socket: Socket | null = null;
  let buffer = Buffer.alloc(0);
  let closed = false;
  let tokens = 0;
  const waiting = new Map<string, (message: BaresipMessage) => void>();
  let queue: Promise<unknown> = Promise.resolve();

  function open() {
    socket = connect(Number(port), host);
    socket.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const colon = buffer.indexOf(":");
        if (colon < 0) break;
        const length = Number(buffer.subarray(0, colon).toString());
        if (buffer.length < colon + 1 + length + 1) break;
        const message = JSON.parse(buffer.subarray(colon + 1, colon + 1 + length).toString()) as BaresipMessage;
        buffer = buffer.subarray(colon + 2 + length);
        receive(message);
      }
    });
    socket.on("error", (error) => log(`phone line: ${error.message}`));
    socket.on("close", () => {
      for (const resolve of waiting.values()) resolve({ response: true, data: "" });
      waiting.clear();
      if (!closed) setTimeout(open, 1_000).unref();
    });
  }

  function receive(message: BaresipMessage) {
    if (message.response && message.token) {
      waiting.get(message.token)?.(message);
      waiting.delete(message.token);
      return;
    }
    const type = message.event && message.type ? EVENT_TYPES[message.type] : undefined;
    if (type && message.peeruri) onEvent({ type, uri: message.peeruri, reason: message.param ?? "", sipCallId: message.id ?? "" });
  }

  function command(name: string, params = ""): Promise<BaresipMessage> {
    const token = String(++tokens);
    const json = JSON.stringify({ command: name, params, token });
    return new Promise((resolve) => {
      waiting.set(token, resolve);
      socket?.write(`${Buffer.byteLength(json)}:${json},`);
    });
  }

  /** Runs `steps` after the commands before them. */
  function inTurn<T>(steps: () => Promise<T>): Promise<T> {
    const next = queue.catch(() => undefined).then(steps);
    queue = next;
    return next;
  }

  open();
  return {
    dial: (uri: string) => inTurn(() => command("dial", uri)),
    /** Hangs up the call placed to `uri` (found in the list of calls by its unique URI). */
    hangup: (uri: string) =>
      inTurn(async () => {
        const list = (await command("listcalls")).data ?? "";
        const line = list.split("\n").find((row) => row.trimEnd().endsWith(uri));
        const number = line && /\[line (\d+)\]/.exec(line)?.[1];
        if (!number) return;
        await command("line", number);
        await command("hangup");
      }),
    close() {
      closed = true;
      socket?.destroy();
    },
  };
}
