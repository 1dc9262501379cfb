import { z } from "zod";

/**
 * GET /health on both servers (design.md §8). The platform also says whether this process owns
 * the CTI (decision 037): what an operator, or a test, looks for to know which process holds the calls.
 */
export const HealthSchema = z.object({ status: z.literal("ok"), ctiOwner: z.boolean().optional() });
