import { createHash } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { codesSentTo } from "#upstream/repositories/sms-outbox";
import { TEST_DB, basicAuth, bearer, describeDb, loginAs, testPlatform } from "#upstream/test-db";
import { TEST_CLIENT, type PreparedPlatform } from "#upstream/testing";
import { buildApp } from "#upstream/app";

const PASSWORD = "Newcomer2026";

describeDb(`registration and account on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  /** The same platform with SIMULATOR_CONTROL: it tells a challenge's answer, as a person reads the picture. */
  let simulated: FastifyInstance;
  let phoneSeq = 0;
  let addressSeq = 0;
  /** A number nobody has used in this file, and a client address of its own. */
  const freshPhone = () => `1390000${String(++phoneSeq).padStart(4, "0")}`;
  const freshAddress = () => `10.20.${Math.floor(++addressSeq / 250)}.${addressSeq % 250}`;

  beforeAll(async () => {
    platform = await testPlatform();
    simulated = buildApp({ db: platform.db, ...TEST_CLIENT, simulatorControl: true });
  });
  afterAll(async () => {
    await simulated?.close();
    await platform?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const client = (address: string) => ({ authorization: basicAuth(), "x-client-address": address });
  /** A new picture challenge and its answer. */
  const challenge = async (address: string) => {
    const made = await simulated.inject({ method: "POST", url: "/crm/open/code/challenge", headers: client(address) });
    expect(made.statusCode, made.body).toBe(200);
    const { id, image } = made.json().data as { id: string; image: string };
    const told = await simulated.inject({
      method: "GET",
      url: `/sms/simulator/challenge?id=${id}`,
      headers: { authorization: basicAuth() },
    });
    return { id, image, answer: told.json().data.answer as string };
  };
  const askCode = (channel: "sms" | "voice", mobile: string, address: string, purpose: string, answered?: { id: string; answer: string }) =>
    platform.app.inject({
      method: "GET",
      url: `/crm/open/code/${channel}?mobile=${mobile}&purpose=${purpose}${answered ? `&challengeId=${answered.id}&challengeAnswer=${answered.answer}` : ""}`,
      headers: client(address),
    });
  /** A code by SMS after a right answer to a new challenge. */
  const sendCode = async (mobile: string, address: string, purpose = "register") =>
    askCode("sms", mobile, address, purpose, await challenge(address));
  const sendVoice = async (mobile: string, address: string, purpose = "register") =>
    askCode("voice", mobile, address, purpose, await challenge(address));
  const register = (body: Record<string, string>, address = "10.9.9.9") =>
    platform.app.inject({ method: "POST", url: "/crm/open/register", headers: client(address), payload: body });
  const reset = (body: Record<string, string>, address = "10.9.9.9") =>
    platform.app.inject({ method: "PUT", url: "/crm/open/password/reset", headers: client(address), payload: body });
  /** The newest code the phone received, as the carrier's outbox holds it. */
  const lastCode = async (mobile: string) => {
    const [message] = await codesSentTo(platform.db, mobile);
    return message ? /(\d{6})/.exec(message.content)![1] : null;
  };
  const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");
  const message = (response: { json: () => unknown }) => (response.json() as { msg: string }).msg;
  /** Fake Date only (the database keeps its own clock); `at(ms)` moves it. */
  const clock = () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    vi.setSystemTime(start);
    return (ms: number) => vi.setSystemTime(start + ms);
  };

  async function signUp(companyName = `新公司${phoneSeq + 1}`) {
    const mobile = freshPhone();
    expect((await sendCode(mobile, freshAddress())).statusCode).toBe(200);
    const code = (await lastCode(mobile))!;
    const response = await register({ mobile, code, password: PASSWORD, companyName });
    expect(response.statusCode, response.body).toBe(200);
    return { mobile, companyName, code, ...(response.json() as { data: { tenantId: number; customerId: string } }).data };
  }

  it("shows the codes delivered to a number under SIMULATOR_CONTROL only, to the client credential", async () => {
    const mobile = freshPhone();
    await sendCode(mobile, freshAddress());
    const url = `/sms/simulator/codes?mobile=${mobile}`;
    expect((await platform.app.inject({ method: "GET", url, headers: { authorization: basicAuth() } })).statusCode).toBe(404);
    const simulated = buildApp({ db: platform.db, ...TEST_CLIENT, simulatorControl: true });
    try {
      expect((await simulated.inject({ method: "GET", url, headers: bearer(await loginAs(simulated, "admin")) })).statusCode).toBe(401);
      const shown = await simulated.inject({ method: "GET", url, headers: { authorization: basicAuth() } });
      expect(shown.statusCode).toBe(200);
      expect(shown.json().data[0].content).toContain(`您的注册验证码为${await lastCode(mobile)}`);
    } finally {
      await simulated.close();
    }
  });

  it("takes the console's client credential on /crm/open: no caller without it", async () => {
    const response = await platform.app.inject({ method: "GET", url: `/crm/open/code/sms?mobile=13900001111` });
    expect(response.statusCode).toBe(401);
    const named = await platform.app.inject({ method: "PUT", url: "/crm/open/register/name", payload: { companyName: "某公司" } });
    expect(named.statusCode).toBe(401);
  });

  it("sends a 6-digit code through the SMS outbox and stores only its hash", async () => {
    const mobile = freshPhone();
    const response = await sendCode(mobile, freshAddress());
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ code: 1, data: { resendAfterSeconds: 60, expiresInSeconds: 300, voiceOffered: false } });
    const code = await lastCode(mobile);
    expect(code).toMatch(/^\d{6}$/);
    const outbox = await platform.db
      .selectFrom("sms_messages")
      .select(["tenant_id", "kind", "status"])
      .where("phone", "=", mobile)
      .execute();
    expect(outbox).toEqual([{ tenant_id: null, kind: "code", status: "queued" }]);
    const stored = await platform.db.selectFrom("verification_codes").selectAll().where("phone", "=", mobile).execute();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(code);
    expect(stored[0].code_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("draws a picture challenge in strokes, keeps its answer hashed, and tells the answer under SIMULATOR_CONTROL only", async () => {
    const { id, image, answer } = await challenge(freshAddress());
    expect(answer).toMatch(/^\d{5}$/);
    const svg = Buffer.from(image.replace("data:image/svg+xml;base64,", ""), "base64").toString();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    // Digits drawn as paths: no text for a program to read, nothing that runs.
    expect(svg).not.toMatch(/<text|<script|href=/);
    const stored = await platform.db.selectFrom("code_challenges").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(stored.answer_hash).toBe(createHash("sha256").update(`${id}:${answer}`).digest("hex"));
    expect(Object.values(stored)).not.toContain(answer);
    const told = await platform.app.inject({
      method: "GET",
      url: `/sms/simulator/challenge?id=${id}`,
      headers: { authorization: basicAuth() },
    });
    expect(told.statusCode).toBe(404);
  });

  it("sends no code without a right, unused, unexpired answer to a challenge", async () => {
    const at = clock();
    const mobile = freshPhone();
    const address = freshAddress();
    const missing = await askCode("sms", mobile, address, "register");
    expect(missing.statusCode).toBe(400);
    expect(message(missing)).toBe("请输入图形验证码");
    const drawn = await challenge(address);
    const wrongAnswer = await askCode("sms", mobile, address, "register", {
      id: drawn.id,
      answer: drawn.answer === "00000" ? "11111" : "00000",
    });
    expect(wrongAnswer.statusCode).toBe(400);
    expect(message(wrongAnswer)).toBe("图形验证码错误，请输入新图片中的数字");
    // A challenge is answered once, even wrongly: the right answer afterwards is refused.
    const reused = await askCode("sms", mobile, address, "register", drawn);
    expect(message(reused)).toBe("图形验证码已失效，请输入新图片中的数字");
    const late = await challenge(address);
    at(5 * 60_000 + 1);
    expect(message(await askCode("sms", mobile, address, "register", late))).toBe("图形验证码已失效，请输入新图片中的数字");
    expect(await lastCode(mobile)).toBeNull();
    // Refused answers sent nothing and count for no limit: a right one sends the code at once.
    const right = await askCode("sms", mobile, address, "register", await challenge(address));
    expect(right.statusCode, right.body).toBe(200);
    expect(message(await sendCode(mobile, address))).toMatch(/^验证码发送过于频繁/);
  });

  it("offers a voice code after the second SMS; it replaces the SMS code and counts in the same limits", async () => {
    const at = clock();
    const mobile = freshPhone();
    const address = freshAddress();
    expect((await sendCode(mobile, address)).json().data.voiceOffered).toBe(false);
    const tooEarly = await sendVoice(mobile, address);
    expect(tooEarly.statusCode).toBe(400);
    expect(message(tooEarly)).toBe("语音验证码在获取2次短信验证码后提供，请先获取短信验证码");
    at(61_000);
    expect((await sendCode(mobile, address)).json().data.voiceOffered).toBe(true);
    const sms = (await lastCode(mobile))!;
    // The 60 s between codes holds across SMS and voice.
    expect(message(await sendVoice(mobile, address))).toMatch(/^验证码发送过于频繁，请在 \d+ 秒后重新获取$/);
    at(122_000);
    const voice = await sendVoice(mobile, address);
    expect(voice.statusCode, voice.body).toBe(200);
    expect(voice.json().data).toEqual({ resendAfterSeconds: 60, expiresInSeconds: 300, voiceOffered: true });
    const [delivered] = await codesSentTo(platform.db, mobile);
    expect(delivered).toMatchObject({ kind: "voice_code" });
    expect(delivered!.content).toMatch(/^【语音】您的注册验证码为\d{6}/);
    const shown = await simulated.inject({
      method: "GET",
      url: `/sms/simulator/codes?mobile=${mobile}`,
      headers: { authorization: basicAuth() },
    });
    expect(shown.json().data.map((code: { channel: string }) => code.channel)).toEqual(["voice", "sms", "sms"]);
    const voiceCode = (await lastCode(mobile))!;
    const stored = await platform.db.selectFrom("verification_codes").select("channel").where("phone", "=", mobile).orderBy("id").execute();
    expect(stored.map((row) => row.channel)).toEqual(["sms", "sms", "voice"]);
    // Two more of either kind make five this hour: the sixth is refused, by SMS or by voice.
    at(183_000);
    expect((await sendVoice(mobile, address)).statusCode).toBe(200);
    at(244_000);
    expect((await sendCode(mobile, address)).statusCode).toBe(200);
    at(305_000);
    expect(message(await sendVoice(mobile, address))).toBe("该手机号1小时内获取验证码已达5次，请稍后再试");
    expect(message(await sendCode(mobile, address))).toBe("该手机号1小时内获取验证码已达5次，请稍后再试");
    // A replaced code no longer works; the newest does, whichever way it came.
    if (sms !== voiceCode)
      expect(message(await register({ mobile, code: sms, password: PASSWORD, companyName: "语音公司" }))).toMatch(/^验证码错误/);
    const newest = (await lastCode(mobile))!;
    expect((await register({ mobile, code: newest, password: PASSWORD, companyName: "语音公司" })).statusCode).toBe(200);
  });

  it("refuses a malformed number in Chinese", async () => {
    const response = await sendCode("12345", freshAddress());
    expect(response.statusCode).toBe(400);
    expect(message(response)).toBe("请输入正确的11位手机号");
  });

  it("refuses a resend before 60 s, in Chinese, and sends one after", async () => {
    const at = clock();
    const mobile = freshPhone();
    const address = freshAddress();
    expect((await sendCode(mobile, address)).statusCode).toBe(200);
    at(30_000);
    const early = await sendCode(mobile, address);
    expect(early.statusCode).toBe(429);
    expect(message(early)).toBe("验证码发送过于频繁，请在 30 秒后重新获取");
    at(60_001);
    expect((await sendCode(mobile, address)).statusCode).toBe(200);
  });

  it("sends at most 5 codes an hour and 10 a day to a number", async () => {
    const at = clock();
    const mobile = freshPhone();
    let t = 0;
    for (let i = 0; i < 5; i++) {
      at((t += 61_000));
      expect((await sendCode(mobile, freshAddress())).statusCode).toBe(200);
    }
    at((t += 61_000));
    const sixth = await sendCode(mobile, freshAddress());
    expect(sixth.statusCode).toBe(429);
    expect(message(sixth)).toBe("该手机号1小时内获取验证码已达5次，请稍后再试");
    // An hour after the first, the hourly window has room again; the day's does not after ten.
    t = 61_000 + 3_600_000;
    for (let i = 0; i < 5; i++) {
      at((t += 61_000));
      expect((await sendCode(mobile, freshAddress())).statusCode).toBe(200);
    }
    at((t += 3_600_000));
    const eleventh = await sendCode(mobile, freshAddress());
    expect(eleventh.statusCode).toBe(429);
    expect(message(eleventh)).toBe("该手机号24小时内获取验证码已达10次，请明天再试");
  });

  it("limits the codes one client address asks for, whatever the numbers", async () => {
    const address = freshAddress();
    for (let i = 0; i < 20; i++) expect((await sendCode(freshPhone(), address)).statusCode).toBe(200);
    const refused = await sendCode(freshPhone(), address);
    expect(refused.statusCode).toBe(429);
    expect(message(refused)).toBe("当前网络获取验证码过于频繁，请稍后再试");
    expect((await sendCode(freshPhone(), freshAddress())).statusCode).toBe(200);
  });

  it("counts wrong codes across resends; the fifth spends the code and locks the number for 30 minutes", async () => {
    const at = clock();
    const mobile = freshPhone();
    const base = { mobile, password: PASSWORD, companyName: "锁定测试公司" };
    expect((await sendCode(mobile, freshAddress())).statusCode).toBe(200);
    const first = (await lastCode(mobile))!;
    for (const left of [4, 3, 2]) {
      const response = await register({ ...base, code: wrongCode(first) });
      expect(response.statusCode).toBe(400);
      expect(message(response)).toBe(`验证码错误，还可尝试${left}次`);
    }
    at(61_000);
    expect((await sendCode(mobile, freshAddress())).statusCode).toBe(200);
    const second = (await lastCode(mobile))!;
    // The old code no longer counts once replaced.
    if (first !== second) expect(message(await register({ ...base, code: first }))).toBe("验证码错误，还可尝试1次");
    else expect(message(await register({ ...base, code: wrongCode(second) }))).toBe("验证码错误，还可尝试1次");
    const fifth = await register({ ...base, code: wrongCode(second) });
    expect(fifth.statusCode).toBe(429);
    expect(message(fifth)).toMatch(/^验证码错误次数过多，该手机号已锁定30分钟，请在 \d\d:\d\d 后重试$/);
    // Locked: even the right code is refused, and no new code is sent.
    expect((await register({ ...base, code: second })).statusCode).toBe(429);
    at(30 * 60_000);
    const whileLocked = await sendCode(mobile, freshAddress());
    expect(whileLocked.statusCode).toBe(429);
    expect(message(whileLocked)).toMatch(/^验证码错误次数过多，该手机号已锁定，请在 \d\d:\d\d 后重试$/);
    at(61_000 + 30 * 60_000 + 1);
    expect((await sendCode(mobile, freshAddress())).statusCode).toBe(200);
    const fresh = (await lastCode(mobile))!;
    expect((await register({ ...base, code: fresh })).statusCode).toBe(200);
  });

  it("refuses an expired code", async () => {
    const at = clock();
    const mobile = freshPhone();
    expect((await sendCode(mobile, freshAddress())).statusCode).toBe(200);
    const code = (await lastCode(mobile))!;
    at(5 * 60_000 + 1);
    const response = await register({ mobile, code, password: PASSWORD, companyName: "过期测试公司" });
    expect(response.statusCode).toBe(400);
    expect(message(response)).toBe("验证码已失效，请重新获取");
  });

  it("says whether a company name is free, and refuses a taken one keeping the code usable", async () => {
    const check = (companyName: string) =>
      platform.app.inject({ method: "PUT", url: "/crm/open/register/name", headers: client("10.1.1.1"), payload: { companyName } });
    expect((await check("演示租户")).json()).toMatchObject({ data: { free: false } });
    expect((await check("还没有人用的公司")).json()).toMatchObject({ data: { free: true } });
    const mobile = freshPhone();
    await sendCode(mobile, freshAddress());
    const code = (await lastCode(mobile))!;
    const taken = await register({ mobile, code, password: PASSWORD, companyName: "演示租户" });
    expect(taken.statusCode).toBe(400);
    expect(message(taken)).toBe("该公司名称已被注册");
    expect((await register({ mobile, code, password: PASSWORD, companyName: "还没有人用的公司" })).statusCode).toBe(200);
  });

  it("refuses a password against the rules, in Chinese", async () => {
    const mobile = freshPhone();
    const weak = await register({ mobile, code: "123456", password: "abcdefgh", companyName: "弱密码公司" });
    expect(weak.statusCode).toBe(400);
    expect(message(weak)).toBe("密码须同时包含字母和数字");
    expect(message(await register({ mobile, code: "123456", password: "a1", companyName: "弱密码公司" }))).toBe("密码至少8位");
  });

  it("signs up a tenant: its administrator signs in with the number, has the admin's menus, a billing account and an empty tenant", async () => {
    const { mobile, code, tenantId, companyName } = await signUp("全新科技有限公司");
    // The code was used.
    const again = await register({ mobile: freshPhone(), code, password: PASSWORD, companyName: "另一家公司" });
    expect(again.statusCode).toBe(400);
    const token = await loginAs(platform.app, mobile, PASSWORD);
    const who = await platform.app.inject({
      method: "GET",
      url: `/uaa/oauth/user_auth?access_token=${token}`,
      headers: { authorization: basicAuth() },
    });
    expect(who.json()).toMatchObject({ data: { userName: mobile, role: "admin", tenantId } });
    const menus = async (t: string) =>
      (await platform.app.inject({ method: "GET", url: "/crm/api/user/menus", headers: bearer(t) })).json() as unknown;
    expect(await menus(token)).toEqual(await menus(await loginAs(platform.app, "admin")));
    const users = await platform.app.inject({ method: "GET", url: "/crm/api/users?pageNo=1&pageSize=50", headers: bearer(token) });
    expect(users.json()).toMatchObject({ data: { total: 1, list: [{ userName: mobile }] } });
    const calls = await platform.db.selectFrom("call_records").select("id").where("tenant_id", "=", tenantId).execute();
    expect(calls).toEqual([]);
    const account = await platform.app.inject({ method: "POST", url: "/billing/api/account/gen", headers: bearer(token) });
    const again2 = await platform.app.inject({ method: "POST", url: "/billing/api/account/gen", headers: bearer(token) });
    expect(account.json()).toMatchObject({ data: { tenantId, balanceCents: 0 } });
    expect(again2.json().data.accountId).toBe(account.json().data.accountId);
    const audit = await platform.db.selectFrom("audit_log").select(["action", "summary"]).where("tenant_id", "=", tenantId).execute();
    expect(audit).toEqual([{ action: "tenant.register", summary: `注册租户「${companyName}」` }]);
    // The same number cannot sign up twice.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 61_000);
    await sendCode(mobile, freshAddress());
    const twice = await register({ mobile, code: (await lastCode(mobile))!, password: PASSWORD, companyName: "第二家公司" });
    expect(message(twice)).toBe("该手机号已注册，请直接登录");
  });

  it("takes the new tenant's company details with an industry from ROBOT_INDUSTRY; administrators only", async () => {
    const { mobile } = await signUp("信息填写公司");
    const token = await loginAs(platform.app, mobile, PASSWORD);
    const dictionary = await platform.app.inject({ method: "GET", url: "/crm/api/dictionary?type=ROBOT_INDUSTRY", headers: bearer(token) });
    expect(dictionary.json().data).toContainEqual({ code: "finance", name: "金融" });
    const put = (t: string, body: Record<string, string>) =>
      platform.app.inject({ method: "PUT", url: "/crm/api/register/info", headers: bearer(t), payload: body });
    const details = {
      companyName: "信息填写公司",
      industry: "finance",
      contactName: "赵敏",
      contactEmail: "zhao@example.com",
      address: "上海",
    };
    expect(message(await put(token, { ...details, industry: "piracy" }))).toBe("请选择所属行业");
    expect(message(await put(token, { ...details, companyName: "演示租户" }))).toBe("该公司名称已被注册");
    expect((await put(await loginAs(platform.app, "agent"), details)).statusCode).toBe(403);
    expect((await put(token, details)).statusCode).toBe(200);
    const profile = await platform.app.inject({ method: "GET", url: "/crm/api/register/info", headers: bearer(token) });
    expect(profile.json().data).toEqual({ ...details, completed: true });
  });

  it("answers a reset request alike for unknown and known numbers; only the account's number gets a code", async () => {
    const { mobile } = await signUp("找回密码公司");
    const unknown = freshPhone();
    const known = await sendCode(mobile, freshAddress(), "reset");
    const stranger = await sendCode(unknown, freshAddress(), "reset");
    expect(known.statusCode).toBe(200);
    expect(stranger.statusCode).toBe(known.statusCode);
    expect(stranger.body).toBe(known.body);
    expect(await lastCode(unknown)).toBeNull();
    const resetCode = (await lastCode(mobile))!;
    // The unknown number's reset is refused like a wrong code, never succeeds.
    expect(message(await reset({ mobile: unknown, code: resetCode, password: "Another2026" }))).toMatch(/^验证码错误/);

    const session = await loginAs(platform.app, mobile, PASSWORD);
    expect((await reset({ mobile, code: resetCode, password: "Another2026" })).statusCode).toBe(200);
    // Every session ended; the new password works; the code is single-use.
    const who = await platform.app.inject({ method: "GET", url: "/crm/api/users", headers: bearer(session) });
    expect(who.statusCode).toBe(401);
    await loginAs(platform.app, mobile, "Another2026");
    const reused = await reset({ mobile, code: resetCode, password: "Third2026x" });
    expect(reused.statusCode).toBe(400);
    expect(message(reused)).toBe("验证码已失效，请重新获取");
  });

  it("offers the reset voice code alike for unknown and known numbers; only the account's number gets the call", async () => {
    const { mobile } = await signUp("语音找回公司");
    const at = clock();
    const unknown = freshPhone();
    const answers: string[] = [];
    for (const number of [mobile, unknown]) {
      at(0);
      await sendCode(number, freshAddress(), "reset");
      at(61_000);
      await sendCode(number, freshAddress(), "reset");
      at(122_000);
      const voice = await sendVoice(number, freshAddress(), "reset");
      expect(voice.statusCode, voice.body).toBe(200);
      answers.push(voice.body);
    }
    expect(answers[1]).toBe(answers[0]);
    expect((await codesSentTo(platform.db, mobile))[0]).toMatchObject({ kind: "voice_code" });
    expect(await codesSentTo(platform.db, unknown)).toEqual([]);
  });

  it("changes a password with the current one, ending every other session of the user", async () => {
    const { mobile } = await signUp("改密码公司");
    const here = await loginAs(platform.app, mobile, PASSWORD);
    const elsewhere = await loginAs(platform.app, mobile, PASSWORD);
    const me = (
      await platform.app.inject({
        method: "GET",
        url: `/uaa/oauth/user_auth?access_token=${here}`,
        headers: { authorization: basicAuth() },
      })
    ).json().data.id as number;
    const change = (id: number, body: Record<string, string>) =>
      platform.app.inject({ method: "PUT", url: `/crm/api/user/${id}/password`, headers: bearer(here), payload: body });
    expect(message(await change(me, { oldPassword: "wrong-one-1", newPassword: "Changed2026" }))).toBe("当前密码不正确");
    expect(message(await change(me, { oldPassword: PASSWORD, newPassword: "short1" }))).toBe("密码至少8位");
    expect((await change(me + 1000, { oldPassword: PASSWORD, newPassword: "Changed2026" })).statusCode).toBe(403);
    // Another user's session is untouched.
    const colleague = await loginAs(platform.app, "agent");
    expect((await change(me, { oldPassword: PASSWORD, newPassword: "Changed2026" })).statusCode).toBe(200);
    const users = (t: string) => platform.app.inject({ method: "GET", url: "/crm/api/users", headers: bearer(t) });
    expect((await users(here)).statusCode).toBe(200);
    expect((await users(elsewhere)).statusCode).toBe(401);
    expect((await users(colleague)).statusCode).toBe(200);
    await loginAs(platform.app, mobile, "Changed2026");
  });
});
