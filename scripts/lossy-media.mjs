// Test-only packet loss on the media path (decision 053), started by scripts/voice-servers.mjs
// with SIMULATOR_CONTROL=1 (never in production). It sits between Kamailio and rtpengine's
// control protocol (ng: a cookie, a space, then bencode over UDP) and passes everything through.
// When a test has asked for loss (`POST /loss?percent=5` on its control port), the next call
// answered gets a relay: the SDP rtpengine gives the phone line names the relay's port instead of
// its own, so the customer's audio goes phone line → relay → rtpengine, and the relay drops one
// packet in every 100/percent (evenly, so each 2 s of statistics sees the same loss). rtpengine
// learns the relay as the phone line's address, so audio the other way passes back through it.
import { createSocket } from "node:dgram";
import { createServer } from "node:http";

/** Bencode to JS: dictionaries become objects, byte strings Buffers. */
function bdecode(buffer, at = 0) {
  const type = String.fromCharCode(buffer[at]);
  if (type === "d" || type === "l") {
    const list = [];
    at += 1;
    while (buffer[at] !== 0x65) {
      const [value, next] = bdecode(buffer, at);
      list.push(value);
      at = next;
    }
    if (type === "l") return [list, at + 1];
    const dict = {};
    for (let i = 0; i < list.length; i += 2) dict[list[i].toString()] = list[i + 1];
    return [dict, at + 1];
  }
  if (type === "i") {
    const end = buffer.indexOf(0x65, at);
    return [Number(buffer.subarray(at + 1, end).toString()), end + 1];
  }
  const colon = buffer.indexOf(0x3a, at);
  const length = Number(buffer.subarray(at, colon).toString());
  return [buffer.subarray(colon + 1, colon + 1 + length), colon + 1 + length];
}

function bencode(value) {
  if (Buffer.isBuffer(value) || typeof value === "string") {
    const bytes = Buffer.from(value);
    return Buffer.concat([Buffer.from(`${bytes.length}:`), bytes]);
  }
  if (typeof value === "number") return Buffer.from(`i${value}e`);
  if (Array.isArray(value)) return Buffer.concat([Buffer.from("l"), ...value.map(bencode), Buffer.from("e")]);
  const entries = Object.entries(value).flatMap(([key, item]) => [bencode(key), bencode(item)]);
  return Buffer.concat([Buffer.from("d"), ...entries, Buffer.from("e")]);
}

/** An ng message: its cookie and its dictionary. */
function ngMessage(packet) {
  const space = packet.indexOf(0x20);
  return { cookie: packet.subarray(0, space).toString(), body: bdecode(packet, space + 1)[0] };
}

/** A UDP relay to rtpengine's `port` that drops every `every`-th packet it forwards there; answers its own port. */
function lossyRelay(host, port, every) {
  const socket = createSocket("udp4");
  let peer = null;
  let count = 0;
  let idle = 0;
  socket.on("message", (packet, from) => {
    idle = 0;
    if (from.port === port && from.address === host) {
      if (peer) socket.send(packet, peer.port, peer.address);
      return;
    }
    peer = from;
    if (++count % every !== 0) socket.send(packet, port, host);
  });
  socket.on("error", () => undefined);
  // Closed once the call has been silent for half a minute.
  const timer = setInterval(() => {
    if (++idle >= 30) {
      clearInterval(timer);
      socket.close();
    }
  }, 1_000);
  timer.unref();
  return new Promise((resolve) => socket.bind(0, "127.0.0.1", () => resolve(socket.address().port)));
}

/**
 * Listens for Kamailio's ng requests on `listenPort` and passes them to rtpengine on
 * `rtpenginePort`; the loss control listens on `controlPort`. Answers `stop()`.
 */
export async function startLossyMedia({ listenPort, rtpenginePort, controlPort }) {
  const kamailioSide = createSocket("udp4");
  const rtpengineSide = createSocket("udp4");
  /** Requests awaiting rtpengine's answer, by cookie: who asked, and whether to interpose a relay. */
  const pending = new Map();
  /** The loss asked for the next answered call: drop one packet in `every` (0: none asked). */
  let every = 0;

  kamailioSide.on("message", (packet, from) => {
    let command = "";
    try {
      command = ngMessage(packet).body.command?.toString() ?? "";
    } catch {
      // not ours to judge: rtpengine answers it
    }
    const lossy = command === "answer" && every > 0 ? every : 0;
    if (lossy) every = 0;
    pending.set(packet.subarray(0, packet.indexOf(0x20)).toString(), { from, lossy });
    rtpengineSide.send(packet, rtpenginePort, "127.0.0.1");
  });
  rtpengineSide.on("message", async (packet) => {
    const cookie = packet.subarray(0, packet.indexOf(0x20)).toString();
    const request = pending.get(cookie);
    if (!request) return;
    pending.delete(cookie);
    const answer = request.lossy ? await withRelay(packet, request.lossy).catch(() => packet) : packet;
    kamailioSide.send(answer, request.from.port, request.from.address);
  });
  for (const socket of [kamailioSide, rtpengineSide]) socket.on("error", () => undefined);

  /** rtpengine's answer with its port for the phone line replaced by a lossy relay's. */
  async function withRelay(packet, lossEvery) {
    const { cookie, body } = ngMessage(packet);
    const sdp = body.sdp?.toString();
    const port = sdp && Number(/^m=audio (\d+) /m.exec(sdp)?.[1]);
    const host = sdp && /^c=IN IP4 (\S+)/m.exec(sdp)?.[1];
    if (!port || !host) return packet;
    const relay = await lossyRelay(host, port, lossEvery);
    body.sdp = sdp.replace(/^m=audio \d+ /m, `m=audio ${relay} `);
    return Buffer.concat([Buffer.from(`${cookie} `), bencode(body)]);
  }

  const control = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method !== "POST" || url.pathname !== "/loss") return void response.writeHead(404).end();
    const percent = Number(url.searchParams.get("percent"));
    every = percent > 0 && percent <= 50 ? Math.round(100 / percent) : 0;
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ dropOneIn: every }));
  });

  await Promise.all([
    new Promise((resolve) => kamailioSide.bind(listenPort, "127.0.0.1", resolve)),
    new Promise((resolve) => rtpengineSide.bind(0, "127.0.0.1", resolve)),
    new Promise((resolve) => control.listen(controlPort, "127.0.0.1", resolve)),
  ]);
  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      kamailioSide.close();
      rtpengineSide.close();
      control.close();
    },
  };
}
