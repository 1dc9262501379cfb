import { z } from "zod";
import { PaginationSchema, envelope, page } from "./envelope";

/**
 * The robot service. Flow parameters (GET /robot/api/flow/param?id=&type=input) and output state
 * (GET /robot/api/flow/state?flowId=) answer code 1 with data.list of spec §3 "Flow parameter item".
 */
export const FlowParamItemSchema = z.object({ name: z.string(), variable: z.string() });
export type FlowParamItem = z.infer<typeof FlowParamItemSchema>;
export const FlowParamListResponseSchema = envelope(z.object({ list: z.array(FlowParamItemSchema) }));

export const FlowParamQuerySchema = z.object({ id: z.coerce.number().int().positive(), type: z.literal("input") });
export const FlowStateQuerySchema = z.object({ flowId: z.coerce.number().int().positive() });

/** POST /robot/api/robot/instance/list: the tenant's robot instances and the flow each runs. */
export const RobotInstanceListQuerySchema = PaginationSchema.extend({ name: z.string().trim().max(64).optional() });
export const RobotInstanceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  flowId: z.number().int().nullable(),
  flowVersionName: z.string().nullable(),
});
export type RobotInstance = z.infer<typeof RobotInstanceSchema>;
export const RobotInstancePageResponseSchema = envelope(page(RobotInstanceSchema));
