import type { FastifyPluginAsync } from "fastify";
import type { z } from "zod";
import type { HealthSchema } from "#contracts/health";

/** Readiness probe (design §8): answers once the app is up; public. */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get("/health", async (): Promise<z.infer<typeof HealthSchema>> => ({ status: "ok" }));
};
