import { z } from "zod";
import { AgentChangeSchema, ForcedLogoutSchema, ForcedStateSchema, WhisperSchema } from "#contracts/monitor";

/**
 * The four actions of an agent's page; each form names its intent, and each but the whisper needs
 * a reason. Checked by the action only: the page's island loads no schema (decision 054).
 */
export const ActionSchema = z.discriminatedUnion("intent", [
  ForcedLogoutSchema.omit({ agentUserId: true }).extend({ intent: z.literal("signOut") }),
  ForcedStateSchema.omit({ agentUserId: true }).extend({ intent: z.literal("state") }),
  AgentChangeSchema.omit({ agentUserId: true }).extend({ intent: z.literal("move") }),
  WhisperSchema.omit({ agentUserId: true }).extend({ intent: z.literal("whisper") }),
]);
export type ActionInput = z.input<typeof ActionSchema>;
export type Intent = ActionInput["intent"];
