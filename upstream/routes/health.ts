import type { FastifyPluginAsync } from "fastify";
import type { z } from "zod";
import type { HealthSchema } from "#contracts/health";

/** Readiness probe (design §8): answers once the app is up, and whether this process owns the CTI; public. */
export const healthRoutes: FastifyPluginAsync<{ ownsCti: () => boolean }> = async (app, { ownsCti }) => {
  app.get("/health", async (): Promise<z.infer<typeof HealthSchema>> => ({ status: "ok", ctiOwner: ownsCti() }));
};
