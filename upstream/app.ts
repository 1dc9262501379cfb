import formbody from "@fastify/formbody";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import type { Db } from "./db";
import { authPlugin } from "./plugins/auth";
import { dbPlugin } from "./plugins/db";
import { errorsPlugin } from "./plugins/errors";
import { configRoutes } from "./routes/config";
import { contactRoutes } from "./routes/contact";
import { crmRoutes } from "./routes/crm";
import { healthRoutes } from "./routes/health";
import { recordsRoutes } from "./routes/records";
import { robotRoutes } from "./routes/robot";
import { uaaRoutes } from "./routes/uaa";

export interface BuildAppOptions {
  db: Db;
  /** The console's fixed client credential for `/uaa/oauth` (design §8). */
  clientId: string;
  clientSecret: string;
  logger?: FastifyServerOptions["logger"];
}

/**
 * The reference platform: plugins (database, errors, auth), then one route module per upstream
 * service. To add a service, write `routes/<service>.ts` exporting a FastifyPluginAsync and
 * register it below. The app does not open, migrate or close the database; its caller does.
 */
export function buildApp({ db, clientId, clientSecret, logger = false }: BuildAppOptions): FastifyInstance {
  const app = Fastify({ logger });

  // Plugins are applied to the root instance directly, so what they add is seen by every route.
  dbPlugin(app, db);
  errorsPlugin(app);
  authPlugin(app, { clientId, clientSecret });
  app.register(formbody);

  app.register(healthRoutes);
  app.register(uaaRoutes);
  app.register(crmRoutes);
  app.register(configRoutes);
  app.register(contactRoutes);
  app.register(recordsRoutes);
  app.register(robotRoutes);

  return app;
}
