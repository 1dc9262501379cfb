import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isAgentSipUser, sipUserOf } from "#contracts/voice";
import { issueSipAccess } from "./credentials";
import { agentFacingPort, pcapToWav } from "./recording";
import { readVoiceSettings, type VoiceSettings } from "./settings";

const settings: VoiceSettings = {
  wsUrl: "ws://127.0.0.1:3710",
  domain: "127.0.0.1:3710",
  secret: "s3cret",
  credentialSeconds: 3_600,
  customerControl: "127.0.0.1:3714",
  mediaControl: null,
  recordingsDir: "/tmp/none",
  iceServers: [],
  iceTransportPolicy: "all",
};

describe("SIP credentials (Kamailio auth_ephemeral)", () => {
  it("name the agent's own SIP user, expire after the period, and are signed with the shared secret", () => {
    const now = Date.UTC(2026, 10, 28, 2, 0, 0);
    const access = issueSipAccess(settings, 3, 42, now);
    if (access.mode !== "sip") throw new Error("expected SIP access");
    expect(access.uri).toBe("sip:t3u42@127.0.0.1:3710");
    expect(access.username).toBe(`${now / 1000 + 3_600}:t3u42`);
    expect(access.expiresAt).toBe("2026-11-28T03:00:00.000Z");
    expect(access.password).toBe(createHmac("sha1", "s3cret").update(access.username).digest("base64"));
    // Another agent, or the same agent with another secret, gets another password.
    expect(issueSipAccess(settings, 3, 43, now)).not.toMatchObject({ password: access.password });
    expect(issueSipAccess({ ...settings, secret: "other" }, 3, 42, now)).not.toMatchObject({ password: access.password });
    expect(sipUserOf(1, 5)).not.toBe(sipUserOf(15, 0));
    // An agent's SIP user is told from the phone line's (a softphone takes a colleague's call only in a consultation).
    expect(isAgentSipUser(sipUserOf(3, 42))).toBe(true);
    expect(["customer", "t3u", "13900139000", "t3u42x"].filter(isAgentSipUser)).toEqual([]);
  });

  it("are issued only when the SIP servers are configured", () => {
    expect(readVoiceSettings({})).toBeNull();
    expect(
      readVoiceSettings({
        VOICE_SIP_WS_URL: "wss://sip.example.com",
        VOICE_SIP_DOMAIN: "example.com",
        VOICE_SIP_SECRET: "x",
        VOICE_CUSTOMER_CONTROL: "127.0.0.1:1",
        VOICE_ICE_SERVERS: '[{"urls":"turn:turn.example.com","username":"u","credential":"c"}]',
      }),
    ).toMatchObject({
      wsUrl: "wss://sip.example.com",
      credentialSeconds: 3_600,
      iceServers: [{ urls: "turn:turn.example.com" }],
      iceTransportPolicy: "all",
    });
  });

  it("hand a relay-only policy to the softphone when VOICE_ICE_TRANSPORT_POLICY says relay", () => {
    const env = { VOICE_SIP_WS_URL: "wss://s", VOICE_SIP_DOMAIN: "s", VOICE_SIP_SECRET: "x", VOICE_CUSTOMER_CONTROL: "127.0.0.1:1" };
    const relayOnly = readVoiceSettings({ ...env, VOICE_ICE_TRANSPORT_POLICY: "relay" })!;
    expect(issueSipAccess(relayOnly, 1, 5)).toMatchObject({ iceTransportPolicy: "relay" });
    expect(readVoiceSettings({ ...env, VOICE_ICE_TRANSPORT_POLICY: "nonsense" })?.iceTransportPolicy).toBe("all");
  });
});

/** A pcap (raw IP link) of A-law RTP packets: [capture ms, destination port, payload, RTP timestamp (0 if not given)], one stream per port. */
function pcapOf(packets: Array<[number, number, Buffer, number?]>): Buffer {
  const header = Buffer.alloc(24);
  header.writeUInt32LE(0xa1b2c3d4, 0);
  header.writeUInt32LE(101, 20);
  const records = packets.map(([ms, port, payload, timestamp = 0]) => {
    const rtp = Buffer.concat([Buffer.from([0x80, 8, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1]), payload]);
    rtp.writeUInt32BE(timestamp, 4);
    const ip = Buffer.alloc(28 + rtp.length);
    ip[0] = 0x45;
    ip[9] = 17;
    ip.writeUInt16BE(40_000, 20);
    ip.writeUInt16BE(port, 22);
    rtp.copy(ip, 28);
    const record = Buffer.alloc(16);
    record.writeUInt32LE(Math.floor(ms / 1000), 0);
    record.writeUInt32LE((ms % 1000) * 1000, 4);
    record.writeUInt32LE(ip.length, 8);
    record.writeUInt32LE(ip.length, 12);
    return Buffer.concat([record, ip]);
  });
  return Buffer.concat([header, ...records]);
}

describe("a call's recording", () => {
  it("puts what the customer sent on the left and what the agent sent on the right, each from the time its first packet was captured", () => {
    // G.711 A-law: 0xaa is the loudest positive sample (+32256), 0x2a the loudest negative, 0xd5 near silence (+8).
    const wav = pcapToWav(
      pcapOf([
        [1_000_000, 5000, Buffer.alloc(160, 0xaa)],
        [1_000_020, 6000, Buffer.alloc(160, 0x2a)],
      ]),
      6000,
    );
    expect(wav.toString("ascii", 0, 4)).toBe("RIFF");
    expect(wav.readUInt16LE(22)).toBe(2);
    expect(wav.readUInt32LE(24)).toBe(8000);
    const frames = (wav.length - 44) / 4;
    expect(frames).toBe(320);
    const left = (i: number) => wav.readInt16LE(44 + i * 4);
    const right = (i: number) => wav.readInt16LE(46 + i * 4);
    expect(left(0)).toBe(32256);
    expect(right(0)).toBe(0);
    expect(left(160)).toBe(0);
    expect(right(160)).toBe(-32256);
  });

  it("places a stream's later packets by their RTP time, so late or early arrivals leave no gap or overlap", () => {
    const wav = pcapToWav(
      pcapOf([
        [1_000_000, 6000, Buffer.alloc(160, 0xaa), 5_000],
        // 35 ms after the first, though it follows it: placed right after it, not 15 ms later.
        [1_000_035, 6000, Buffer.alloc(160, 0x2a), 5_160],
        // Arrived before the one that precedes it: still placed before it.
        [1_000_050, 6000, Buffer.alloc(160, 0xd5), 5_480],
        [1_000_051, 6000, Buffer.alloc(160, 0xaa), 5_320],
      ]),
      6000,
    );
    const right = (i: number) => wav.readInt16LE(46 + i * 4);
    expect((wav.length - 44) / 4).toBe(640);
    expect([right(0), right(159), right(160), right(319), right(320), right(480)]).toEqual([32256, 32256, -32256, -32256, 32256, 8]);
  });

  it("places a stream anew where it was captured when its RTP time jumps, never stretching the file", () => {
    const wav = pcapToWav(
      pcapOf([
        [1_000_000, 6000, Buffer.alloc(160, 0xaa), 5_000],
        [1_000_020, 6000, Buffer.alloc(160, 0x2a), 4_000_000_000],
      ]),
      6000,
    );
    expect((wav.length - 44) / 4).toBe(320);
    expect(wav.readInt16LE(46 + 160 * 4)).toBe(-32256);
  });

  it("turns a call of over an hour into its recording (more packets than a function's arguments may hold)", () => {
    const packets = Array.from({ length: 400_000 }, (_, i): [number, number, Buffer, number] => [
      1_000_000 + i * 10,
      6000,
      Buffer.alloc(1, 0xaa),
      i * 80,
    ]);
    const wav = pcapToWav(pcapOf(packets), 6000);
    expect((wav.length - 44) / 4).toBe(399_999 * 80 + 1);
    expect(wav.readInt16LE(46 + 399_999 * 80 * 4)).toBe(32256);
  });

  it("knows the agent's side by the port rtpengine offered the agent", () => {
    expect(agentFacingPort("SDP mode: offer\n\nv=0\nm=audio 40012 UDP/TLS/RTP/SAVPF 8 101\n")).toBe(40012);
    expect(agentFacingPort("no sdp")).toBeNull();
  });
});
