import { z } from "zod";

/**
 * Sign-up and the account: the rules both sides check with the same Chinese messages,
 * and the shapes of the registration endpoints.
 */

/** A mainland mobile number: 11 digits starting 13–19. */
export const MobileSchema = z
  .string({ required_error: "请输入手机号" })
  .trim()
  .min(1, "请输入手机号")
  .regex(/^1[3-9]\d{9}$/, "请输入正确的11位手机号");

/** The six digits of an SMS code. */
export const SmsCodeSchema = z
  .string({ required_error: "请输入验证码" })
  .trim()
  .min(1, "请输入验证码")
  .regex(/^\d{6}$/, "验证码为6位数字");

/** The password rules, as the forms show them. */
export const PASSWORD_RULES = "密码长度8-32位，须同时包含字母和数字，不能含空格";

export const PasswordSchema = z
  .string({ required_error: "请输入密码" })
  .min(1, "请输入密码")
  .min(8, "密码至少8位")
  .max(32, "密码不能超过32位")
  .refine((value) => !/\s/.test(value), "密码不能含空格")
  .refine((value) => /[A-Za-z]/.test(value) && /\d/.test(value), "密码须同时包含字母和数字");

export const CompanyNameSchema = z
  .string({ required_error: "请输入公司名称" })
  .trim()
  .min(2, "公司名称至少2个字符")
  .max(50, "公司名称不能超过50个字符");

/** What a code is for. */
export const CodePurposeSchema = z.enum(["register", "reset"]);
export type CodePurpose = z.infer<typeof CodePurposeSchema>;

/** The answer to a picture challenge, as typed (the platform compares it; the forms only require it). */
export const ChallengeAnswerSchema = z
  .string({ required_error: "请输入图形验证码" })
  .trim()
  .min(1, "请输入图形验证码")
  .max(10, "图形验证码错误，请重新输入");

/**
 * GET /crm/open/code/sms and GET /crm/open/code/voice ?mobile=&purpose=&challengeId=&challengeAnswer=
 * (the challenge is checked by the platform, which answers a missing one in Chinese).
 */
export const SendCodeQuerySchema = z.object({
  mobile: MobileSchema,
  purpose: CodePurposeSchema.default("register"),
  challengeId: z.string().max(64).optional(),
  challengeAnswer: z.string().max(10, "图形验证码错误，请重新输入").optional(),
});

/**
 * What a sent code's answer tells: when another may be asked for, until when this one holds, and
 * whether a voice code is now offered (after the second SMS).
 */
export const CodeSentSchema = z.object({
  resendAfterSeconds: z.number().int(),
  expiresInSeconds: z.number().int(),
  voiceOffered: z.boolean(),
});

/** POST /crm/open/code/challenge: a picture challenge (an SVG as a data: address) for the next code request. */
export const CodeChallengeSchema = z.object({
  id: z.string(),
  image: z.string().startsWith("data:image/svg+xml;base64,"),
  expiresInSeconds: z.number().int(),
});
export type CodeChallenge = z.infer<typeof CodeChallengeSchema>;
export type CodeSent = z.infer<typeof CodeSentSchema>;

/** PUT /crm/open/register/name */
export const CompanyNameCheckSchema = z.object({ companyName: CompanyNameSchema });
export const NameFreeSchema = z.object({ free: z.boolean() });

/** POST /crm/open/register */
export const RegisterSchema = z.object({
  mobile: MobileSchema,
  code: SmsCodeSchema,
  password: PasswordSchema,
  companyName: CompanyNameSchema,
});
export const RegisteredSchema = z.object({ userName: z.string(), tenantId: z.number().int(), customerId: z.string() });
export type Registered = z.infer<typeof RegisteredSchema>;

/** PUT /crm/open/password/reset: a new password by an SMS code to the account's number. */
export const ResetPasswordSchema = z.object({ mobile: MobileSchema, code: SmsCodeSchema, password: PasswordSchema });

/** PUT /crm/api/register/info: the company details a new tenant fills in. */
export const RegisterInfoSchema = z.object({
  companyName: CompanyNameSchema,
  industry: z.string({ required_error: "请选择所属行业" }).trim().min(1, "请选择所属行业").max(32, "请选择所属行业"),
  contactName: z.string({ required_error: "请输入联系人姓名" }).trim().min(1, "请输入联系人姓名").max(32, "联系人姓名不能超过32个字符"),
  contactEmail: z
    .string()
    .trim()
    .max(100, "邮箱不能超过100个字符")
    .email("请输入正确的邮箱地址")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  address: z.string().trim().max(200, "地址不能超过200个字符").optional(),
});
export const TenantProfileSchema = z.object({
  companyName: z.string(),
  industry: z.string().nullable(),
  contactName: z.string().nullable(),
  contactEmail: z.string().nullable(),
  address: z.string().nullable(),
  completed: z.boolean(),
});
export type TenantProfile = z.infer<typeof TenantProfileSchema>;

/** POST /billing/api/account/gen */
export const BillingAccountSchema = z.object({ accountId: z.number().int(), tenantId: z.number().int(), balanceCents: z.number().int() });

/** PUT /crm/api/user/{id}/password */
export const ChangePasswordSchema = z.object({
  oldPassword: z.string({ required_error: "请输入当前密码" }).min(1, "请输入当前密码").max(128, "当前密码不正确"),
  newPassword: PasswordSchema,
});
