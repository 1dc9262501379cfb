import formbody from "@fastify/formbody";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import type { Db } from "./db";
import { createEventBus, type EventBus } from "./events/bus";
import { authPlugin } from "./plugins/auth";
import { dbPlugin } from "./plugins/db";
import { errorsPlugin } from "./plugins/errors";
import { chatRoutes, chatSimulatorRoutes } from "./routes/chat";
import { configRoutes } from "./routes/config";
import { crmRoutes } from "./routes/crm";
import { eventRoutes } from "./routes/events";
import { healthRoutes } from "./routes/health";
import { uaaRoutes } from "./routes/uaa";

declare module "fastify" {
  interface FastifyInstance {
    /** Real-time events per user: services publish, the event stream route delivers. */
    events: EventBus;
  }
}

export interface BuildAppOptions {
  db: Db;
  /** The console's fixed client credential for `/uaa/oauth` (design §8). */
  clientId: string;
  clientSecret: string;
  logger?: FastifyServerOptions["logger"];
  /** Registers the chat simulator's control routes (tests and demos only: SIMULATOR_CONTROL=1). */
  simulatorControl?: boolean;
}

/**
 * The reference platform: plugins (database, errors, auth), then one route module per upstream
 * service. To add a service, write `routes/<service>.ts` exporting a FastifyPluginAsync and
 * register it below. The app does not open, migrate or close the database; its caller does.
 */
export function buildApp({ db, clientId, clientSecret, logger = false, simulatorControl = false }: BuildAppOptions): FastifyInstance {
  // Event streams never end by themselves: closing the app must not wait for them.
  const app = Fastify({ logger, forceCloseConnections: true });

  // Plugins are applied to the root instance directly, so what they add is seen by every route.
  dbPlugin(app, db);
  errorsPlugin(app);
  authPlugin(app, { clientId, clientSecret });
  app.register(formbody);
  app.decorate("events", createEventBus(db));

  app.register(healthRoutes);
  app.register(uaaRoutes);
  app.register(crmRoutes);
  app.register(configRoutes);
  app.register(eventRoutes);
  app.register(chatRoutes);
  if (simulatorControl) app.register(chatSimulatorRoutes);

  return app;
}
