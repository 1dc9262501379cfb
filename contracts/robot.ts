import { z } from "zod";
import { envelope } from "./envelope";

/**
 * The robot service. Flow parameters (GET /robot/api/flow/param?id=&type=input) and output state
 * (GET /robot/api/flow/state?flowId=) answer code 1 with data.list of spec §3 "Flow parameter item".
 */
export const FlowParamItemSchema = z.object({ name: z.string(), variable: z.string() });
export type FlowParamItem = z.infer<typeof FlowParamItemSchema>;
export const FlowParamListResponseSchema = envelope(z.object({ list: z.array(FlowParamItemSchema) }));

export const FlowParamQuerySchema = z.object({ id: z.coerce.number().int().positive(), type: z.literal("input") });
export const FlowStateQuerySchema = z.object({ flowId: z.coerce.number().int().positive() });
