import { z } from "zod";
import { RobotAllocateInputSchema, RobotCopyInputSchema, RobotInstanceInputSchema, RobotTransferInputSchema } from "#contracts/robot";

/** The forms of a robot's page, told apart by a hidden intent (design §4). */
export const RobotFormSchema = z.discriminatedUnion("intent", [
  RobotInstanceInputSchema.extend({ intent: z.literal("robot.update") }),
  RobotAllocateInputSchema.omit({ id: true }).extend({ intent: z.literal("robot.allocate") }),
  RobotTransferInputSchema.omit({ id: true }).extend({ intent: z.literal("robot.transfer") }),
  RobotCopyInputSchema.omit({ id: true }).extend({ intent: z.literal("robot.copy") }),
  z.object({ intent: z.literal("robot.delete"), confirmed: z.literal("1").optional() }),
]);
export type RobotForm = z.infer<typeof RobotFormSchema>;
export const UpdateFormSchema = RobotInstanceInputSchema.extend({ intent: z.literal("robot.update") });
