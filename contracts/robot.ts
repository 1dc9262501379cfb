import { z } from "zod";
import { FLOW_NODE_TYPES, FLOW_VERSION_STATES, INTENT_LABELS, ROBOT_SPEAKERS, codesOf } from "./codes";
import { PaginationSchema, envelope, page } from "./envelope";

/**
 * The robot service. Flow parameters (GET /robot/api/flow/param?id=&type=input) and output state
 * (GET /robot/api/flow/state?flowId=) answer code 1 with data.list of spec §3 "Flow parameter item".
 */
export const FlowParamItemSchema = z.object({ name: z.string(), variable: z.string() });
export type FlowParamItem = z.infer<typeof FlowParamItemSchema>;
export const FlowParamListResponseSchema = envelope(z.object({ list: z.array(FlowParamItemSchema) }));

/* Editing a draft's parameters (decision 029): PUT /robot/api/flow/{id}/params, the whole lists. */
export const FLOW_PARAMS_MAX = 30;
export const FlowParamInputSchema = z.object({
  name: z.string({ required_error: "请填写参数名称" }).trim().min(1, "请填写参数名称").max(30, "参数名称不能超过30个字符"),
  variable: z
    .string({ required_error: "请填写变量名" })
    .trim()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,29}$/, "变量名只能是1-30位字母、数字或下划线，且不能以数字开头"),
});
const paramList = (what: string) =>
  z
    .array(FlowParamInputSchema)
    .max(FLOW_PARAMS_MAX, `${what}最多${FLOW_PARAMS_MAX}个`)
    .superRefine((items, ctx) => {
      const seen = new Set<string>();
      items.forEach((item, i) => {
        if (seen.has(item.variable)) ctx.addIssue({ code: "custom", path: [i, "variable"], message: `变量名「${item.variable}」重复` });
        seen.add(item.variable);
      });
    });
export const FlowParamsInputSchema = z.object({ input: paramList("入参"), state: paramList("输出状态") });
export type FlowVersionParams = z.infer<typeof FlowParamsInputSchema>;
/**
 * PUT /robot/api/flow/{id}/params: the two lists, and the draft they were edited on (its id and
 * updatedAt as the form loaded them). When given and the flow's draft is no longer that version, or
 * it changed since, the platform refuses (409) rather than save them on another version.
 */
const EditedVersionShape = {
  versionId: z.coerce.number({ invalid_type_error: "版本无效" }).int("版本无效").positive("版本无效").optional(),
  updatedAt: z.string().max(40).optional(),
};
export const FlowParamsSaveSchema = FlowParamsInputSchema.extend(EditedVersionShape);
export type FlowParamsSave = z.infer<typeof FlowParamsSaveSchema>;

export const FlowParamQuerySchema = z.object({ id: z.coerce.number().int().positive(), type: z.literal("input") });
export const FlowStateQuerySchema = z.object({ flowId: z.coerce.number().int().positive() });

/**
 * POST /robot/api/robot/instance/list: the tenant's robot instances and the flow each runs;
 * filters: a part of the name, the flow it runs, one robot by id (the console's edit page).
 */
export const RobotInstanceListQuerySchema = PaginationSchema.extend({
  name: z.string().trim().max(64).optional(),
  flowId: z.coerce.number().int().positive().optional(),
  id: z.coerce.number().int().positive().optional(),
});
export type RobotInstanceListQuery = z.infer<typeof RobotInstanceListQuerySchema>;
/** A campaign that uses a robot; calling: running with a batch still calling (the robot cannot be deleted). */
export const RobotCampaignSchema = z.object({ id: z.number().int(), name: z.string(), calling: z.boolean() });
export const RobotInstanceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  flowId: z.number().int().nullable(),
  /** The version in service of its flow when it last changed (the call records name it). */
  flowVersionName: z.string().nullable(),
  flowName: z.string().nullable(),
  /** Its flow has a version in service: only then can a campaign choose it. */
  published: z.boolean(),
  /** Calls at once; the queue its hand-offs go to; the caller number it shows. */
  concurrency: z.number().int(),
  queueName: z.string().nullable(),
  callerNumber: z.string().nullable(),
  /** Its speaker (ROBOT_SPEAKERS code), its gateway line (one of the tenant's) and whether the dialer follows the working calendar. */
  speaker: z.string().nullable().default(null),
  lineId: z.number().int().nullable().default(null),
  lineName: z.string().nullable().default(null),
  followCalendar: z.boolean().default(false),
  /** The campaigns that use it (deleting it leaves them without a robot). */
  campaigns: z.array(RobotCampaignSchema).default([]),
});
export type RobotInstance = z.infer<typeof RobotInstanceSchema>;
export const RobotInstancePageResponseSchema = envelope(page(RobotInstanceSchema));

/* ------------------------------------------------------------------------------------------------
 * Flows and their versions (decision 019). A flow is a named conversation; its versions
 * move through FLOW_VERSION_STATES; one published version per flow is "in service" (the one the
 * robots speak). A design is a list of nodes; the first node is where a call starts.
 * --------------------------------------------------------------------------------------------- */

export const FLOW_NAME_MAX = 30;
export const FLOW_NODES_MAX = 50;
export const FLOW_PROMPT_MAX = 500;
export const FLOW_ROUTES_MAX = 10;
export const FLOW_KEYWORDS_MAX = 20;
export const FLOW_REASON_MAX = 200;

const nodeTypes = codesOf(FLOW_NODE_TYPES) as [string, ...string[]];
const versionStates = codesOf(FLOW_VERSION_STATES) as [number, ...number[]];
export type FlowNodeType = "speak" | "listen" | "branch" | "transfer" | "hangup";

/** A node's key: short and URL-safe, so forms, anchors and the diagram can name it. */
/** What a node key may be, as the add-node form explains it. */
export const FLOW_NODE_KEY_RULE = "1-20位字母、数字、下划线或短横线";
export const FlowNodeKeySchema = z
  .string({ required_error: "请填写节点编号" })
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,20}$/, `节点编号只能是${FLOW_NODE_KEY_RULE}`);
/** Where a route goes: a node key, or empty while the design is unfinished (validation names it). */
const NextSchema = z.string().trim().max(20).default("");

export const FlowIntentRouteSchema = z.object({
  intent: z.string().refine((code) => codesOf(INTENT_LABELS).includes(code), "意图无效"),
  /** Words that, said by the customer, mean this intent here; empty = the intent's default words. */
  keywords: z
    .array(z.string().trim().min(1).max(20, "关键词不能超过20个字符"))
    .max(FLOW_KEYWORDS_MAX, `关键词不能超过${FLOW_KEYWORDS_MAX}个`),
  next: NextSchema,
});

export const FlowBranchRouteSchema = z.object({
  /** A flow input parameter's variable (查看入参), compared as text. */
  variable: z.string().trim().min(1, "请填写变量名").max(30),
  value: z.string().trim().max(50),
  next: NextSchema,
});

export const FlowNodeSchema = z.object({
  key: FlowNodeKeySchema,
  type: z.enum(nodeTypes as [FlowNodeType, ...FlowNodeType[]], { errorMap: () => ({ message: "节点类型无效" }) }),
  name: z.string({ required_error: "请填写节点名称" }).trim().min(1, "请填写节点名称").max(30, "节点名称不能超过30个字符"),
  /** What the robot says (speak, listen's question, transfer and hang-up's last words); {variable} is filled from the call's parameters. */
  prompt: z.string().trim().max(FLOW_PROMPT_MAX, `话术不能超过${FLOW_PROMPT_MAX}个字符`).default(""),
  /** speak: the node after it. */
  next: NextSchema,
  /** listen: each intent and where it leads. */
  intents: z.array(FlowIntentRouteSchema).max(FLOW_ROUTES_MAX, `每个节点最多${FLOW_ROUTES_MAX}个意图`).default([]),
  /** branch: conditions in order; the first that holds is taken. */
  branches: z.array(FlowBranchRouteSchema).max(FLOW_ROUTES_MAX, `每个节点最多${FLOW_ROUTES_MAX}个条件`).default([]),
  /** listen: nothing recognised; branch: no condition holds. */
  otherNext: NextSchema,
  /** transfer: the queue the call is handed to (none: the robot's, else the campaign's; decision 029). */
  queueName: z.string().trim().max(64, "队列名称不能超过64个字符").optional(),
});
export type FlowNode = z.infer<typeof FlowNodeSchema>;

/** PUT /robot/api/flow/{id}/design: the flow's draft, whole. */
export const FlowDesignInputSchema = z.object({
  nodes: z.array(FlowNodeSchema).min(1, "流程至少需要一个节点").max(FLOW_NODES_MAX, `流程最多${FLOW_NODES_MAX}个节点`),
});
/** PUT /robot/api/flow/{id}/design: the nodes, and the draft they were edited on, refused (409) as the parameters are. */
export const FlowDesignSaveSchema = FlowDesignInputSchema.extend(EditedVersionShape);

/** A problem of a design (domain/flow-design.ts), in Chinese; nodeKey null for the whole flow. */
export const FlowProblemSchema = z.object({ nodeKey: z.string().nullable(), message: z.string() });
export type FlowProblem = z.infer<typeof FlowProblemSchema>;

export const FlowDiffChangeSchema = z.object({
  nodeKey: z.string(),
  nodeName: z.string(),
  kind: z.enum(["added", "removed", "changed"]),
  fields: z.array(z.object({ label: z.string(), before: z.string(), after: z.string() })),
});
export type FlowDiffChange = z.infer<typeof FlowDiffChangeSchema>;

export const FlowVersionSchema = z.object({
  id: z.number().int(),
  flowId: z.number().int(),
  no: z.number().int(),
  name: z.string(),
  state: z.number().int(),
  inService: z.boolean(),
  /** Why the reviewer returned it (kept until the next submit). */
  returnReason: z.string().nullable(),
  basedOn: z.string().nullable(),
  nodeCount: z.number().int(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  publishedAt: z.string().nullable(),
});
export type FlowVersion = z.infer<typeof FlowVersionSchema>;

export const FlowSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  serviceVersion: z.string().nullable(),
  /** The draft or the version under review, if any (a flow has at most one). */
  working: z.object({ id: z.number().int(), name: z.string(), state: z.number().int() }).nullable(),
  versionCount: z.number().int(),
  robotCount: z.number().int(),
  updatedAt: z.string(),
});
export type FlowSummary = z.infer<typeof FlowSummarySchema>;

/** POST /robot/api/flow/list */
export const FlowListQuerySchema = PaginationSchema.extend({
  name: z.string().trim().max(FLOW_NAME_MAX).optional(),
  state: z.coerce
    .number()
    .int()
    .refine((n) => versionStates.includes(n), "状态无效")
    .optional(),
});
export type FlowListQuery = z.infer<typeof FlowListQuerySchema>;
export const FlowPageResponseSchema = envelope(page(FlowSummarySchema));

/** POST /robot/api/flow/new */
export const FlowNewInputSchema = z.object({
  name: z
    .string({ required_error: "请输入流程名称" })
    .trim()
    .min(1, "请输入流程名称")
    .max(FLOW_NAME_MAX, `流程名称不能超过${FLOW_NAME_MAX}个字符`),
  description: z.string().trim().max(200, "流程说明不能超过200个字符").default(""),
});

/** A transition's history line (from the audit log). */
export const FlowHistorySchema = z.object({
  at: z.string(),
  actorName: z.string(),
  action: z.string(),
  summary: z.string(),
  reason: z.string().nullable(),
});

/** GET /robot/api/flow/{id} */
export const FlowDetailSchema = z.object({
  flow: FlowSummarySchema,
  versions: z.array(FlowVersionSchema),
  history: z.array(FlowHistorySchema),
});
export type FlowDetail = z.infer<typeof FlowDetailSchema>;
export const FlowDetailResponseSchema = envelope(FlowDetailSchema);
export const FlowResponseSchema = envelope(FlowSummarySchema);

/** GET /robot/api/flow/{id}/design?versionId= (default: the draft, else the version in service). */
export const FlowDesignQuerySchema = z.object({ versionId: z.coerce.number().int().positive().optional() });
export const FlowDesignSchema = z.object({
  flow: FlowSummarySchema,
  version: FlowVersionSchema,
  nodes: z.array(FlowNodeSchema),
  problems: z.array(FlowProblemSchema),
  /** Against the version in service; null when none is, or when this is it. */
  diff: z.object({ against: z.string(), changes: z.array(FlowDiffChangeSchema) }).nullable(),
  params: z.array(FlowParamItemSchema),
  /** The version's output states (输出状态). */
  states: z.array(FlowParamItemSchema).default([]),
});
export type FlowDesign = z.infer<typeof FlowDesignSchema>;
export const FlowDesignResponseSchema = envelope(FlowDesignSchema);

/** publish, market, cover: the version acted on. */
export const FlowVersionInputSchema = z.object({
  versionId: z.coerce.number({ required_error: "请选择版本", invalid_type_error: "请选择版本" }).int().positive("请选择版本"),
});
/** POST /robot/api/flow/{id}/audit/return */
export const FlowReturnInputSchema = z.object({
  reason: z
    .string({ required_error: "请填写退回原因" })
    .trim()
    .min(1, "请填写退回原因")
    .max(FLOW_REASON_MAX, `退回原因不能超过${FLOW_REASON_MAX}个字符`),
});

/** POST /robot/api/flow/nlu/test: which intent a listen node hears in a sentence, and where it goes. */
export const NluTestInputSchema = z.object({
  flowId: z.coerce.number().int().positive("请选择流程"),
  versionId: z.coerce.number().int().positive().optional(),
  nodeKey: z.string().trim().max(20).optional(),
  sentence: z.string({ required_error: "请输入客户说的话" }).trim().min(1, "请输入客户说的话").max(200, "句子不能超过200个字符"),
});
export const NluResultSchema = z.object({
  nodeKey: z.string(),
  nodeName: z.string(),
  intent: z.string().nullable(),
  intentLabel: z.string(),
  keyword: z.string().nullable(),
  next: z.string(),
  nextName: z.string().nullable(),
});
export type NluResult = z.infer<typeof NluResultSchema>;
export const NluResultResponseSchema = envelope(NluResultSchema);

/* Robot instances (decision 019): edit, delete, allocate (the hand-off queue), transfer (to another flow), copy. */
export const ROBOT_NAME_MAX = 30;
const robotName = z
  .string({ required_error: "请输入机器人名称" })
  .trim()
  .min(1, "请输入机器人名称")
  .max(ROBOT_NAME_MAX, `机器人名称不能超过${ROBOT_NAME_MAX}个字符`);
const optionalId = z.coerce
  .number({ invalid_type_error: "编号无效" })
  .int("编号无效")
  .positive("编号无效")
  .max(Number.MAX_SAFE_INTEGER, "编号无效")
  .nullable()
  .default(null);

/** PUT /robot/api/robot/instance/{id} */
export const RobotInstanceInputSchema = z.object({
  name: robotName,
  flowId: optionalId,
  concurrency: z.coerce
    .number({ invalid_type_error: "并发数应为数字" })
    .int("并发数应为整数")
    .min(1, "并发数至少为1")
    .max(100, "并发数不能超过100")
    .default(1),
  callerNumber: z.string().trim().max(20).nullable().default(null),
  speaker: z
    .string()
    .trim()
    .nullable()
    .default(null)
    .refine((code) => code === null || codesOf(ROBOT_SPEAKERS).includes(code), "所选发音人不存在，请重新选择"),
  lineId: optionalId,
  /** 按工作日历外呼: a running campaign using it does not call on the calendar's rest days and festivals. */
  followCalendar: z.boolean().default(false),
});
export type RobotInstanceInput = z.infer<typeof RobotInstanceInputSchema>;
/** POST …/allocate: the queue its hand-offs go to (null: none). */
export const RobotAllocateInputSchema = z.object({
  id: z.coerce.number().int().positive(),
  queueName: z.string().trim().max(64).nullable().default(null),
});
/** POST …/transfer: the robot runs another flow of the tenant. */
export const RobotTransferInputSchema = z.object({
  id: z.coerce.number().int().positive(),
  flowId: z.coerce.number({ invalid_type_error: "请选择流程" }).int().positive("请选择流程"),
});
/** POST …/copy: a copy under a new name. */
export const RobotCopyInputSchema = z.object({ id: z.coerce.number().int().positive(), name: robotName });
export const RobotInstanceResponseSchema = envelope(RobotInstanceSchema);
/** DELETE /robot/api/robot/instance/{id} */
export const RobotDeletedResponseSchema = envelope(z.object({ id: z.number().int() }));
