import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { z } from "zod";
import {
  ChangePasswordSchema,
  CompanyNameCheckSchema,
  RegisterInfoSchema,
  RegisterSchema,
  ResetPasswordSchema,
  SendCodeQuerySchema,
  type CodeChallenge,
  type CodePurpose,
  type CodeSent,
  type Registered,
  type TenantProfile,
} from "#contracts/account";
import { cstClock } from "#common/china-time";
import { dictionaryEntries } from "#upstream/domain/dictionary";
import { hashPassword, verifyPassword } from "#upstream/domain/passwords";
import { WorkType } from "#upstream/domain/work-type";
import { HttpError, ok, parseInput } from "#upstream/http";
import { clientAddressOf, requireUser, revokeOtherUserTokens, revokeUserTokens } from "#upstream/plugins/auth";
import { actorOf, writeAudit } from "#upstream/repositories/audit-log";
import { ensureBillingAccount } from "#upstream/repositories/billing";
import { CHALLENGE_TTL_MS, answerChallenge, createChallenge, type ChallengeRefusal } from "#upstream/repositories/code-challenges";
import { addressKey } from "#upstream/repositories/sign-in-throttle";
import { codesSentTo, queueSms } from "#upstream/repositories/sms-outbox";
import { companyNameTaken, findTenantProfile, insertTenant, updateTenantProfile } from "#upstream/repositories/tenants";
import { findPasswordHash, findUserByMobile, insertUser, setPasswordHash, userNameTaken } from "#upstream/repositories/users";
import {
  CODE_TTL_MS,
  LOCK_MS,
  PHONE_DAILY,
  PHONE_HOURLY,
  RESEND_MS,
  VOICE_AFTER_SMS,
  issueCode,
  useCode,
  voiceOffered,
  type CheckResult,
  type SendRefusal,
} from "#upstream/repositories/verification-codes";

/** The signature codes are sent under. */
const SMS_SIGNATURE = "云客服";
const INDUSTRY = "ROBOT_INDUSTRY";

function sendRefusalMessage(refusal: SendRefusal): string {
  switch (refusal.refused) {
    case "locked":
      return `验证码错误次数过多，该手机号已锁定，请在 ${cstClock(refusal.until)} 后重试`;
    case "tooSoon":
      return `验证码发送过于频繁，请在 ${refusal.waitSeconds} 秒后重新获取`;
    case "phoneHourly":
      return `该手机号1小时内获取验证码已达${PHONE_HOURLY}次，请稍后再试`;
    case "phoneDaily":
      return `该手机号24小时内获取验证码已达${PHONE_DAILY}次，请明天再试`;
    case "addressHourly":
    case "addressDaily":
      return "当前网络获取验证码过于频繁，请稍后再试";
  }
}

/** A refused code as an HttpError: wrong or expired are 400s, a locked number a 429. */
function codeRefusal(result: Exclude<CheckResult, { ok: true }>): HttpError {
  switch (result.refused) {
    case "expired":
      return new HttpError(400, "验证码已失效，请重新获取");
    case "wrong":
      return new HttpError(400, `验证码错误，还可尝试${result.triesLeft}次`);
    case "spent":
      return new HttpError(429, `验证码错误次数过多，该手机号已锁定${LOCK_MS / 60_000}分钟，请在 ${cstClock(result.until)} 后重试`);
    case "locked":
      return new HttpError(429, `验证码错误次数过多，该手机号已锁定，请在 ${cstClock(result.until)} 后重试`);
  }
}

function codeText(purpose: CodePurpose, code: string, channel: "sms" | "voice"): string {
  const what = purpose === "register" ? "注册" : "重置密码";
  // A voice call reads the digits one by one; the outbox keeps what it said.
  if (channel === "voice")
    return `【语音】您的${what}验证码为${code}，重复一遍，${[...code].join(" ")}，${CODE_TTL_MS / 60_000}分钟内有效。`;
  return `您的${what}验证码为${code}，${CODE_TTL_MS / 60_000}分钟内有效。如非本人操作，请忽略本短信。`;
}

const CHALLENGE_REFUSALS: Record<ChallengeRefusal, string> = {
  missing: "请输入图形验证码",
  wrong: "图形验证码错误，请输入新图片中的数字",
  expired: "图形验证码已失效，请输入新图片中的数字",
};

/**
 * Under SIMULATOR_CONTROL only, the answers of the newest challenges, so e2e can pass them as a
 * person reading the picture would (the database holds hashes only). Bounded: the oldest go first.
 */
const simulatedAnswers = new Map<string, string>();
function rememberSimulatedAnswer(id: string, answer: string) {
  simulatedAnswers.set(id, answer);
  if (simulatedAnswers.size > 1000) simulatedAnswers.delete(simulatedAnswers.keys().next().value!);
}

/** A unique violation of the database (a name or number taken by a parallel request). */
function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "23505";
}

const NAME_TAKEN = "该公司名称已被注册";
const MOBILE_TAKEN = "该手机号已注册，请直接登录";
const IdParamsSchema = z.object({ id: z.coerce.number().int().positive() });

/**
 * Sign-up of a new tenant and the account. The `/crm/open` routes take the console's
 * client credential (plugins/auth.ts), so the client address it passes can be trusted by the
 * limits; the rest take the user's token.
 */
export const registrationRoutes: FastifyPluginAsync<{ simulatorControl?: boolean }> = async (app, options) => {
  // A picture challenge for the next code request (decision 024). The SVG goes out as a data:
  // address the console puts in an <img>; the answer stays here, hashed.
  app.post("/crm/open/code/challenge", async (request) => {
    const address = addressKey(clientAddressOf(request));
    const challenge = await createChallenge(app.db, { address, now: new Date() });
    if (!challenge) throw new HttpError(429, "图形验证码获取过于频繁，请稍后再试");
    if (options.simulatorControl) rememberSimulatedAnswer(challenge.id, challenge.answer);
    return ok<CodeChallenge>({
      id: challenge.id,
      image: `data:image/svg+xml;base64,${Buffer.from(challenge.svg).toString("base64")}`,
      expiresInSeconds: CHALLENGE_TTL_MS / 1000,
    });
  });

  // Sends a code by SMS, or by a voice call once two went by SMS (both through the outbox, moved by
  // the carrier simulator), after a right answer to a picture challenge. A reset code for a number
  // no account has is counted and answered the same, but not sent: nobody learns which numbers exist.
  async function sendCode(request: FastifyRequest, channel: "sms" | "voice"): Promise<CodeSent> {
    const query = parseInput(SendCodeQuerySchema, request.query);
    const { mobile, purpose } = query;
    const address = addressKey(clientAddressOf(request));
    const now = new Date();
    type Outcome =
      | { refused: "challenge"; why: ChallengeRefusal }
      | { refused: "voiceNotYet" }
      | { refused: "limit"; why: SendRefusal }
      | { refused: null; sent: CodeSent };
    const outcome = await app.db.transaction().execute(async (trx): Promise<Outcome> => {
      const challenge = await answerChallenge(trx, { id: query.challengeId, answer: query.challengeAnswer, now });
      if (challenge) return { refused: "challenge", why: challenge };
      if (channel === "voice" && !(await voiceOffered(trx, { phone: mobile, purpose, now }))) return { refused: "voiceNotYet" };
      const result = await issueCode(trx, { phone: mobile, purpose, address, now, channel });
      if (!("code" in result)) return { refused: "limit", why: result };
      const account = purpose === "reset" ? await findUserByMobile(trx, mobile) : undefined;
      if (purpose === "register" || account) {
        await queueSms(trx, {
          tenantId: account?.tenantId ?? null,
          phone: mobile,
          content: codeText(purpose, result.code, channel),
          signature: SMS_SIGNATURE,
          kind: channel === "voice" ? "voice_code" : "code",
        });
      }
      const offered = await voiceOffered(trx, { phone: mobile, purpose, now });
      return { refused: null, sent: { resendAfterSeconds: RESEND_MS / 1000, expiresInSeconds: CODE_TTL_MS / 1000, voiceOffered: offered } };
    });
    switch (outcome.refused) {
      case "challenge":
        throw new HttpError(400, CHALLENGE_REFUSALS[outcome.why]);
      case "voiceNotYet":
        throw new HttpError(400, `语音验证码在获取${VOICE_AFTER_SMS}次短信验证码后提供，请先获取短信验证码`);
      case "limit":
        throw new HttpError(429, sendRefusalMessage(outcome.why));
      case null:
        return outcome.sent;
    }
  }

  app.get("/crm/open/code/sms", async (request) => ok<CodeSent>(await sendCode(request, "sms")));
  app.get("/crm/open/code/voice", async (request) => ok<CodeSent>(await sendCode(request, "voice")));

  app.put("/crm/open/register/name", async (request) => {
    const { companyName } = parseInput(CompanyNameCheckSchema, request.body);
    return ok<{ free: boolean }>({ free: !(await companyNameTaken(app.db, companyName)) });
  });

  // The sign-up: the code, then the tenant, its administrator (who signs in with the mobile
  // number), and its billing account, all or nothing. A refusal after a right code rolls the code
  // back with everything else, so it can be used again; a wrong code is counted and kept.
  app.post("/crm/open/register", async (request) => {
    const body = parseInput(RegisterSchema, request.body);
    const passwordHash = await hashPassword(body.password);
    const now = new Date();
    let outcome: CheckResult | Registered;
    try {
      outcome = await app.db.transaction().execute(async (trx) => {
        const checked = await useCode(trx, { phone: body.mobile, purpose: "register", code: body.code, now });
        if (!checked.ok) return checked;
        if ((await userNameTaken(trx, body.mobile)) || (await findUserByMobile(trx, body.mobile))) throw new HttpError(400, MOBILE_TAKEN);
        if (await companyNameTaken(trx, body.companyName)) throw new HttpError(400, NAME_TAKEN);
        const code = `t${randomBytes(5).toString("hex")}`;
        const customerId = `C${randomBytes(5).toString("hex").toUpperCase()}`;
        const tenantId = await insertTenant(trx, { code, name: body.companyName, customer_id: customerId });
        const userId = await insertUser(trx, {
          tenant_id: tenantId,
          user_name: body.mobile,
          real_name: "管理员",
          password_hash: passwordHash,
          role: "admin",
          work_type: WorkType.voice,
          agent_id: "1000",
          default_queue_name: `${code}-voice`,
          mobile: body.mobile,
        });
        await ensureBillingAccount(trx, tenantId);
        await writeAudit(
          trx,
          { id: userId, name: "管理员", tenantId },
          { action: "tenant.register", target: { type: "tenant", id: tenantId }, summary: `注册租户「${body.companyName}」` },
        );
        return { userName: body.mobile, tenantId, customerId };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(400, `${NAME_TAKEN}或${MOBILE_TAKEN}`);
      throw error;
    }
    if ("ok" in outcome) throw codeRefusal(outcome as Exclude<CheckResult, { ok: true }>);
    return ok<Registered>(outcome);
  });

  // A new password by a code sent to the account's number; every session of the account ends.
  app.put("/crm/open/password/reset", async (request) => {
    const body = parseInput(ResetPasswordSchema, request.body);
    const passwordHash = await hashPassword(body.password);
    const now = new Date();
    const outcome = await app.db.transaction().execute(async (trx) => {
      const checked = await useCode(trx, { phone: body.mobile, purpose: "reset", code: body.code, now });
      if (!checked.ok) return checked;
      const account = await findUserByMobile(trx, body.mobile);
      // No code was ever sent to a number without an account: it cannot be right.
      if (!account) return { ok: false, refused: "expired" } as const;
      await setPasswordHash(trx, account.tenantId, account.id, passwordHash);
      await writeAudit(
        trx,
        { id: account.id, name: account.realName, tenantId: account.tenantId },
        {
          action: "account.passwordReset",
          target: { type: "user", id: account.id },
          summary: `通过短信验证码重置账号「${account.userName}」的密码`,
        },
      );
      return { ok: true, userId: account.id } as const;
    });
    if (!outcome.ok) throw codeRefusal(outcome);
    await revokeUserTokens(app, outcome.userId);
    return ok(null);
  });

  app.get("/crm/api/register/info", async (request) => {
    const user = requireUser(request);
    const profile = await findTenantProfile(app.db, user.tenantId);
    if (!profile) throw new HttpError(404, "租户不存在");
    return ok<TenantProfile>(profile);
  });

  // The company details of the caller's tenant, filled in by its administrator after sign-up.
  app.put("/crm/api/register/info", async (request) => {
    const user = requireUser(request);
    const body = parseInput(RegisterInfoSchema, request.body);
    if (!dictionaryEntries(INDUSTRY).some((entry) => entry.code === body.industry)) throw new HttpError(400, "请选择所属行业");
    try {
      await app.db.transaction().execute(async (trx) => {
        if (await companyNameTaken(trx, body.companyName, user.tenantId)) throw new HttpError(400, NAME_TAKEN);
        await updateTenantProfile(trx, user.tenantId, {
          name: body.companyName,
          industry: body.industry,
          contact_name: body.contactName,
          contact_email: body.contactEmail ?? null,
          address: body.address || null,
          profile_completed_at: new Date(),
        });
        await writeAudit(trx, actorOf(user), {
          action: "tenant.profile",
          target: { type: "tenant", id: user.tenantId },
          summary: `填写企业信息「${body.companyName}」`,
          detail: { industry: body.industry },
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(400, NAME_TAKEN);
      throw error;
    }
    return ok(null);
  });

  // The caller's tenant's billing account, made when it has none (a sign-up makes it already).
  app.post("/billing/api/account/gen", async (request) => {
    const user = requireUser(request);
    const account = await app.db.transaction().execute(async (trx) => {
      const result = await ensureBillingAccount(trx, user.tenantId);
      if (result.created) {
        await writeAudit(trx, actorOf(user), {
          action: "billing.account",
          target: { type: "tenant", id: user.tenantId },
          summary: "开通计费账户",
        });
      }
      return result;
    });
    return ok({ accountId: account.id, tenantId: user.tenantId, balanceCents: account.balanceCents });
  });

  // The caller's own password: the current one is required; every other session of theirs ends.
  app.put("/crm/api/user/:id/password", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    if (id !== user.id) throw new HttpError(403, "只能修改自己的密码");
    const body = parseInput(ChangePasswordSchema, request.body);
    const stored = await findPasswordHash(app.db, user.tenantId, user.id);
    if (!stored || !(await verifyPassword(body.oldPassword, stored))) throw new HttpError(400, "当前密码不正确");
    if (body.oldPassword === body.newPassword) throw new HttpError(400, "新密码不能与当前密码相同");
    const passwordHash = await hashPassword(body.newPassword);
    await app.db.transaction().execute(async (trx) => {
      await setPasswordHash(trx, user.tenantId, user.id, passwordHash);
      await writeAudit(trx, actorOf(user), {
        action: "account.password",
        target: { type: "user", id: user.id },
        summary: `修改账号「${user.userName}」的密码`,
      });
    });
    await revokeOtherUserTokens(app, request, user.id);
    return ok(null);
  });
};

/**
 * Simulator control (SIMULATOR_CONTROL=1, tests and demos): the verification codes the carrier
 * has for a number, newest first, as the phone would show them (`channel` voice for a code read out
 * by a call), and the answer of a picture challenge. Takes the client credential
 * (plugins/auth.ts): `curl -u web-console:web-console-secret '.../sms/simulator/codes?mobile=139...'`.
 */
export const registrationSimulatorRoutes: FastifyPluginAsync = async (app) => {
  app.get("/sms/simulator/codes", async (request) => {
    const { mobile } = parseInput(z.object({ mobile: z.string().min(1).max(20) }), request.query);
    const rows = await codesSentTo(app.db, mobile);
    return ok(
      rows.map((row) => ({
        content: row.content,
        channel: row.kind === "voice_code" ? "voice" : "sms",
        createdAt: row.created_at.toISOString(),
      })),
    );
  });

  // Time passing for a number's codes (e2e cannot wait the 60 s between codes): every code of the
  // number is made older by `seconds`, as if asked for that much earlier.
  app.post("/sms/simulator/codes/age", async (request) => {
    const { mobile, seconds } = parseInput(
      z.object({ mobile: z.string().min(1).max(20), seconds: z.number().int().min(1).max(86_400) }),
      request.body,
    );
    const by = sql<Date>`interval '1 second' * ${seconds}`;
    await app.db
      .updateTable("verification_codes")
      .set({ created_at: sql`created_at - ${by}`, expires_at: sql`expires_at - ${by}` })
      .where("phone", "=", mobile)
      .execute();
    return ok(null);
  });

  // The answer of a challenge the platform drew, as a person would read it off the picture.
  app.get("/sms/simulator/challenge", async (request) => {
    const { id } = parseInput(z.object({ id: z.string().min(1).max(64) }), request.query);
    const answer = simulatedAnswers.get(id);
    if (!answer) throw new HttpError(404, "没有该图形验证码");
    return ok({ answer });
  });
};
