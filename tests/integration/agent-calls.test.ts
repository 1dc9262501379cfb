import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WebSocket } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueSipAccess } from "#upstream/voice/credentials";
import { readVoiceSettings, type VoiceSettings } from "#upstream/voice/settings";
import { missingVoiceParts, startVoiceServers } from "../../scripts/voice-servers.mjs";

/**
 * Kamailio as `npm start` configures it (decision 052): an agent's softphone may call another
 * registered agent of its own tenant (a consultation), as the user its credentials name, and
 * nothing else. Raw SIP over WebSocket, so each refusal is seen as Kamailio answers it.
 */
const BASE_PORT = Number(process.env.VOICE_TEST_PORT ?? 3290);

type Servers = Awaited<ReturnType<typeof startVoiceServers>>;
let servers: Servers;
let settings: VoiceSettings;
const dataDir = mkdtempSync(join(tmpdir(), "switchboard-agent-calls-"));

beforeAll(async () => {
  expect(missingVoiceParts(), "real voice needs the Debian packages .ci/run installs").toEqual([]);
  servers = await startVoiceServers({ basePort: BASE_PORT, dataDir, log: () => undefined });
  settings = readVoiceSettings(servers!.platformEnv)!;
}, 60_000);
afterAll(async () => {
  await servers?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const md5 = (text: string) => createHash("md5").update(text).digest("hex");
const token = () => randomBytes(6).toString("hex");

/** One SIP message's start line, headers (lower-case names, every value) and body. */
function parse(text: string) {
  const [head] = text.split("\r\n\r\n");
  const [start, ...lines] = head.split("\r\n");
  const headers = new Map<string, string[]>();
  for (const line of lines) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  return { start, headers, header: (name: string) => headers.get(name)?.[0] ?? "" };
}
type Message = ReturnType<typeof parse>;

/** A softphone on a WebSocket: signed in as agent `user` of `tenant`, with the platform's credentials. */
async function softphone(tenant: number, user: number) {
  const access = issueSipAccess(settings, tenant, user);
  if (access.mode !== "sip") throw new Error("expected SIP access");
  const { username, password } = access;
  const domain = settings.domain;
  const me = `t${tenant}u${user}`;
  const socket = new WebSocket(settings.wsUrl, "sip");
  const inbox: Message[] = [];
  const waiting: Array<() => void> = [];
  socket.addEventListener("message", (event) => {
    inbox.push(parse(String(event.data)));
    for (const wake of waiting.splice(0)) wake();
  });
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve);
    socket.addEventListener("error", reject);
  });

  /** The next message `matches` accepts (taken out of the inbox). */
  async function next(matches: (message: Message) => boolean): Promise<Message> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const found = inbox.findIndex(matches);
      if (found >= 0) return inbox.splice(found, 1)[0];
      if (Date.now() > deadline) throw new Error(`no such SIP message; had: ${inbox.map((m) => m.start).join(" | ")}`);
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  /** Sends a request and answers its final response, answering one digest challenge on the way. */
  async function request(method: string, uri: string, headers: Record<string, string> = {}, from = me): Promise<Message> {
    const callId = token();
    const fromTag = token();
    const to = method === "REGISTER" ? `<sip:${me}@${domain}>` : `<${uri}>`;
    const send = (cseq: number, extra: string[]) => {
      const lines = [
        `${method} ${uri} SIP/2.0`,
        `Via: SIP/2.0/WS ${token()}.invalid;branch=z9hG4bK${token()}`,
        "Max-Forwards: 70",
        `To: ${to}`,
        `From: <sip:${from}@${domain}>;tag=${fromTag}`,
        `Call-ID: ${callId}`,
        `CSeq: ${cseq} ${method}`,
        `Contact: <sip:${me}@${token()}.invalid;transport=ws>`,
        ...(method === "REGISTER" ? ["Expires: 300"] : []),
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
        ...extra,
        "Content-Length: 0",
      ];
      socket.send(`${lines.join("\r\n")}\r\n\r\n`);
    };
    const final = () => next((m) => m.header("call-id") === callId && /^SIP\/2\.0 [2-6]\d\d/.test(m.start));
    send(1, []);
    const first = await final();
    const challenge = first.header("www-authenticate") || first.header("proxy-authenticate");
    if (!/^SIP\/2\.0 40[17]/.test(first.start) || !challenge) return first;
    const field = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(challenge)?.[1] ?? "";
    const [realm, nonce] = [field("realm"), field("nonce")];
    const response = md5(`${md5(`${username}:${realm}:${password}`)}:${nonce}:${md5(`${method}:${uri}`)}`);
    const name = first.start.includes(" 401") ? "Authorization" : "Proxy-Authorization";
    send(2, [
      `${name}: Digest username="${username}", realm="${realm}", nonce="${nonce}", uri="${uri}", response="${response}", algorithm=MD5`,
    ]);
    return final();
  }

  return {
    user: me,
    register: () => request("REGISTER", `sip:${domain}`),
    /** An INVITE to `target`, naming CTI call `cti` in the request URI as the softphone does. */
    call: (target: string, { cti = "", headers = {}, from = me } = {}) =>
      request("INVITE", `sip:${target}@${domain}${cti ? `;cti=${cti}` : ""}`, headers, from),
    next,
    send: (text: string) => socket.send(text),
    close: () => socket.close(),
  };
}
type Softphone = Awaited<ReturnType<typeof softphone>>;

/** Answers an INVITE that reached a softphone with a final `status` (so the caller hears it). */
function reply(phone: Softphone, invite: Message, status: string) {
  const copied = ["via", "from", "call-id", "cseq"].flatMap((name) => invite.headers.get(name)!.map((value) => `${name}: ${value}`));
  const to = `To: ${invite.header("to")};tag=${token()}`;
  phone.send(`SIP/2.0 ${status}\r\n${[...copied, to, "Content-Length: 0"].join("\r\n")}\r\n\r\n`);
}

describe("an agent's softphone calls (Kamailio, decision 052)", () => {
  let asking: Softphone;
  let colleague: Softphone;
  let stranger: Softphone;
  beforeAll(async () => {
    [asking, colleague, stranger] = await Promise.all([softphone(1, 11), softphone(1, 12), softphone(2, 21)]);
    for (const phone of [asking, colleague, stranger]) expect((await phone.register()).start).toBe("SIP/2.0 200 OK");
  });
  afterAll(() => {
    for (const phone of [asking, colleague, stranger]) phone?.close();
  });

  it("reaches a registered colleague of its tenant, naming the CTI call only as the request URI does", async () => {
    const answered = asking.call(colleague.user, { cti: "cti-consult-1", headers: { "X-Cti-Call": "cti-forged" } });
    const invite = await colleague.next((m) => m.start.startsWith("INVITE "));
    expect(invite.headers.get("x-cti-call")).toEqual(["cti-consult-1"]);
    expect(invite.header("from")).toContain(`sip:${asking.user}@`);
    reply(colleague, invite, "486 Busy Here");
    expect((await answered).start).toBe("SIP/2.0 486 Busy Here");
  });

  it("may not call an agent of another tenant, anything that is not an agent, or itself", async () => {
    for (const target of [stranger.user, "customer", "13900139000", asking.user]) {
      expect((await asking.call(target, { cti: "cti-consult-2" })).start, target).toMatch(/^SIP\/2\.0 403/);
    }
  });

  it("may not call as another agent, and finds no colleague who is not registered", async () => {
    expect((await asking.call(colleague.user, { from: stranger.user })).start).toMatch(/^SIP\/2\.0 403/);
    expect((await asking.call("t1u13")).start).toMatch(/^SIP\/2\.0 480/);
  });
});
