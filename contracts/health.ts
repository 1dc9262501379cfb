import { z } from "zod";

/** GET /health on both servers (design.md §8). */
export const HealthSchema = z.object({ status: z.literal("ok") });
