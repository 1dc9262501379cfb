import { z } from "zod";
import { WORK_TYPES, codesOf } from "./codes";
import { PaginationSchema, envelope, page } from "./envelope";
import { RoleSchema } from "./uaa";

/** Brand variants (spec: default cloud platform, government centre, medical centre). */
export const BrandKeySchema = z.enum(["default", "gov", "medical"]);
export type BrandKey = z.infer<typeof BrandKeySchema>;

/** GET /config/logo?brand=... — public; the logo is an image data URI so the browser never calls the platform. */
export const LogoSchema = z.object({ brand: BrandKeySchema, logo: z.string() });
export const LogoResponseSchema = envelope(LogoSchema);

/** GET /config/agents/detail/{id} — spec §3 "Agent config"; workType 3 is a text agent. */
export const AgentConfigSchema = z.object({
  agentId: z.string(),
  workType: z.number().int(),
  defaultQueueName: z.string(),
  autoAnswer: z.boolean(),
});
export type AgentConfig = z.infer<typeof AgentConfigSchema>;
export const AgentConfigResponseSchema = envelope(AgentConfigSchema);

/** GET /config/api/customer — the caller's customer (tenant) profile. */
export const CustomerSchema = z.object({
  customerId: z.string(),
  tenantId: z.number().int(),
  tenantCode: z.string(),
  name: z.string(),
});
export const CustomerResponseSchema = envelope(CustomerSchema);

/** GET /config/tenants/{id}/callerIdNumbers: the numbers the tenant's outbound calls show. */
export const CallerIdNumberSchema = z.object({ id: z.number().int(), number: z.string() });
export const CallerIdNumbersResponseSchema = envelope(z.array(CallerIdNumberSchema));

/** GET /config/queues/list: the tenant's queues (every agent's queue) and how many agents each has. */
export const QueueSchema = z.object({ name: z.string(), agents: z.number().int().nonnegative() });
export const QueueListResponseSchema = envelope(z.object({ list: z.array(QueueSchema), total: z.number().int().nonnegative() }));

/**
 * How long an offered call rings at an agent of a queue before it goes back to the queue for the
 * next agent (the agent who let it ring becomes not ready, 未接来电). Ours (decision 022).
 */
export const RING_SECONDS = { min: 5, max: 300 } as const;
export const ringSeconds = z.coerce
  .number({ required_error: "请填写振铃超时", invalid_type_error: "振铃超时应为整数秒" })
  .int("振铃超时应为整数秒")
  .min(RING_SECONDS.min, `振铃超时至少 ${RING_SECONDS.min} 秒`)
  .max(RING_SECONDS.max, `振铃超时不能超过 ${RING_SECONDS.max} 秒`);
/**
 * Whether a queue's after-call work ends by itself when its period is over. It never ends while the
 * call's result is unsaved: then it ends when the result is saved. Off: only the agent ends it.
 */
export const QueueSettingSchema = z.object({
  queueName: z.string().trim().min(1, "请选择队列").max(64),
  ringSeconds,
  acwAutoReady: z.boolean().default(true),
});
/** GET /config/queues/settings: every queue of the tenant with its ring timeout and after-call work (the defaults where none is set). */
export const QueueSettingsSchema = z.object({
  list: z.array(QueueSettingSchema.extend({ agents: z.number().int().nonnegative(), isDefault: z.boolean() })),
  defaultRingSeconds: z.number().int().positive(),
});
export const QueueSettingsResponseSchema = envelope(QueueSettingsSchema);
/** PUT /config/queues/settings: the queues' ring timeouts and after-call work, with the reason for the change. */
export const QueueSettingsUpdateSchema = z.object({
  settings: z.array(QueueSettingSchema).min(1, "请至少设置一个队列").max(200, "一次最多设置200个队列"),
  reason: z.string().trim().min(1, "请填写修改原因").max(200, "原因不能超过200个字符"),
});

/*
 * Agent administration (坐席配置, decision 031): the tenant's agents (accounts with a 工号) and each
 * one's configuration, administrators only. GET /config/agents/list is our path (spec §7 names
 * only /config/agents/{id}).
 */
export const AGENT_ID_PATTERN = /^\d{4,8}$/;
export const AGENT_ID_RULE = "工号应为4至8位数字";
export const QUEUE_NAME_MAX = 64;
export const AGENT_REASON_MAX = 200;

/** GET /config/agents/list?name=&workType=&queueName=&pageNo=&pageSize= */
export const AgentListQuerySchema = PaginationSchema.extend({
  name: z.string().trim().max(30, "姓名或工号不能超过30个字符").optional(),
  workType: z.coerce
    .number({ invalid_type_error: "类型无效" })
    .int("类型无效")
    .refine((code) => codesOf(WORK_TYPES).includes(code), "类型无效")
    .optional(),
  queueName: z.string().trim().max(QUEUE_NAME_MAX).optional(),
});
export type AgentListQuery = z.infer<typeof AgentListQuerySchema>;

/** An agent as the administrator sees it: GET /config/agents/list rows and GET /config/agents/{id}. */
export const AgentSchema = z.object({
  id: z.number().int(),
  userName: z.string(),
  realName: z.string(),
  role: RoleSchema,
  agentId: z.string(),
  workType: z.number().int(),
  defaultQueueName: z.string(),
  autoAnswer: z.boolean(),
});
export type Agent = z.infer<typeof AgentSchema>;
export const AgentPageResponseSchema = envelope(page(AgentSchema));
export const AgentResponseSchema = envelope(AgentSchema);

/** PUT /config/agents/{id}: the agent's type, 工号 and default queue, with the reason (audited). */
export const AgentUpdateSchema = z.object({
  workType: z.coerce
    .number({ required_error: "请选择类型", invalid_type_error: "请选择类型" })
    .int("请选择类型")
    .refine((code) => codesOf(WORK_TYPES).includes(code), "请选择类型"),
  agentId: z.string({ required_error: "请填写工号" }).trim().min(1, "请填写工号").regex(AGENT_ID_PATTERN, AGENT_ID_RULE),
  defaultQueueName: z
    .string({ required_error: "请选择默认队列" })
    .trim()
    .min(1, "请选择默认队列")
    .max(QUEUE_NAME_MAX, `队列名称不能超过${QUEUE_NAME_MAX}个字符`),
  reason: z
    .string({ required_error: "请填写修改原因" })
    .trim()
    .min(1, "请填写修改原因")
    .max(AGENT_REASON_MAX, `原因不能超过${AGENT_REASON_MAX}个字符`),
});
export type AgentUpdate = z.infer<typeof AgentUpdateSchema>;
