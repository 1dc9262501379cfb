import { z } from "zod";
import {
  BillingAccountSchema,
  CodeChallengeSchema,
  CodeSentSchema,
  NameFreeSchema,
  RegisteredSchema,
  TenantProfileSchema,
  type CodePurpose,
} from "#contracts/account";
import { envelope } from "#contracts/envelope";
import { call, requireData, type Caller } from "./upstream.server";

/** Sign-up, password reset and the account (endpoints.md rows U). */

const addressHeader = (clientAddress: string | null) => (clientAddress ? { "X-Client-Address": clientAddress } : undefined);

/** POST /crm/open/code/challenge — a picture challenge for the next code request. */
export async function newCodeChallenge(clientAddress: string | null) {
  const answer = await call({
    method: "POST",
    path: "/crm/open/code/challenge",
    headers: addressHeader(clientAddress),
    schema: envelope(CodeChallengeSchema),
    what: "获取图形验证码",
    caller: null,
  });
  return requireData(answer, "获取图形验证码");
}

/**
 * GET /crm/open/code/sms or /crm/open/code/voice — a code to a number, after the picture
 * challenge's answer; the platform's limits count the browser's address.
 */
export async function sendCode(
  request: { mobile: string; purpose: CodePurpose; channel: "sms" | "voice"; challengeId: string; challengeAnswer: string },
  clientAddress: string | null,
) {
  const { mobile, purpose, channel, challengeId, challengeAnswer } = request;
  const answer = await call({
    path: `/crm/open/code/${channel}`,
    query: { mobile, purpose, challengeId, challengeAnswer },
    headers: addressHeader(clientAddress),
    schema: envelope(CodeSentSchema),
    what: "获取验证码",
    caller: null,
  });
  return requireData(answer, "获取验证码");
}

/** PUT /crm/open/register/name — whether a company name is free. */
export async function isCompanyNameFree(companyName: string): Promise<boolean> {
  const answer = await call({
    method: "PUT",
    path: "/crm/open/register/name",
    json: { companyName },
    schema: envelope(NameFreeSchema),
    what: "校验公司名称",
    caller: null,
  });
  return requireData(answer, "校验公司名称").free;
}

/** POST /crm/open/register — the new tenant and its administrator. */
export async function registerTenant(
  body: { mobile: string; code: string; password: string; companyName: string },
  clientAddress: string | null,
) {
  const answer = await call({
    method: "POST",
    path: "/crm/open/register",
    json: body,
    headers: addressHeader(clientAddress),
    schema: envelope(RegisteredSchema),
    what: "注册",
    caller: null,
  });
  return requireData(answer, "注册");
}

/** PUT /crm/open/password/reset — a new password by the code sent to the account's number. */
export async function resetPassword(body: { mobile: string; code: string; password: string }, clientAddress: string | null) {
  await call({
    method: "PUT",
    path: "/crm/open/password/reset",
    json: body,
    headers: addressHeader(clientAddress),
    schema: envelope(z.null()),
    what: "重置密码",
    caller: null,
  });
}

/** GET /crm/api/register/info — the tenant's company details. */
export async function getTenantProfile(caller: Caller) {
  const answer = await call({ path: "/crm/api/register/info", schema: envelope(TenantProfileSchema), what: "获取企业信息", caller });
  return requireData(answer, "获取企业信息");
}

/** PUT /crm/api/register/info */
export async function saveTenantProfile(
  caller: Caller,
  profile: { companyName: string; industry: string; contactName: string; contactEmail?: string; address?: string },
) {
  await call({ method: "PUT", path: "/crm/api/register/info", json: profile, schema: envelope(z.null()), what: "保存企业信息", caller });
}

/** POST /billing/api/account/gen — the tenant's billing account (made at sign-up; made here if missing). */
export async function generateBillingAccount(caller: Caller) {
  const answer = await call({
    method: "POST",
    path: "/billing/api/account/gen",
    schema: envelope(BillingAccountSchema),
    what: "开通计费账户",
    caller,
  });
  return requireData(answer, "开通计费账户");
}

/** PUT /crm/api/user/{id}/password — the caller's own password; their other sessions end. */
export async function changePassword(caller: Caller, body: { oldPassword: string; newPassword: string }) {
  await call({
    method: "PUT",
    path: `/crm/api/user/${caller.userId}/password`,
    json: body,
    schema: envelope(z.null()),
    what: "修改密码",
    caller,
  });
}
