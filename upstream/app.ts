import formbody from "@fastify/formbody";
import { installChineseValidationMessages } from "#common/zod-chinese";
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from "fastify";
import type { Db } from "#upstream/db";
import { createCti, DEFAULT_CTI_OPTIONS, type Cti, type CtiOptions } from "#upstream/cti/service";
import { createNotificationBus, type NotificationBus } from "#upstream/notifications/bus";
import { authPlugin, followRevocations } from "#upstream/plugins/auth";
import { forwardToOwner } from "#upstream/cluster/forwarding";
import { soleOwner, type Ownership } from "#upstream/cluster/ownership";
import { dbPlugin } from "#upstream/plugins/db";
import { errorsPlugin } from "#upstream/plugins/errors";
import { chatRoutes, chatSimulatorRoutes } from "#upstream/routes/chat";
import { configRoutes } from "#upstream/routes/config";
import { contactRoutes } from "#upstream/routes/contact";
import { crmRoutes } from "#upstream/routes/crm";
import { ctiRoutes, ctiSimulatorRoutes } from "#upstream/routes/cti";
import { eventRoutes } from "#upstream/routes/events";
import { healthRoutes } from "#upstream/routes/health";
import { recordsRoutes } from "#upstream/routes/records";
import { robotRoutes } from "#upstream/routes/robot";
import { robotResourceRoutes } from "#upstream/routes/robot-resources";
import { uaaRoutes } from "#upstream/routes/uaa";
import { outboundRoutes } from "#upstream/routes/outbound";
import { contactTraceRoutes } from "#upstream/routes/contact-trace";
import { fileUploadRoutes } from "#upstream/routes/file-upload";
import { Dialer } from "#upstream/simulators/dialer";
import { workbenchRoutes } from "#upstream/routes/workbench";
import { auditRoutes } from "#upstream/routes/audit";
import { monitorRoutes } from "#upstream/routes/monitor";
import { registrationRoutes, registrationSimulatorRoutes } from "#upstream/routes/registration";
import { knowledgeRoutes } from "#upstream/routes/knowledge";
import { customerRoutes } from "#upstream/routes/customers";
import { clientLogRoutes } from "#upstream/routes/client-log";
import { workOrderRoutes } from "#upstream/routes/work-orders";
import { inspectionRoutes } from "#upstream/routes/inspection";
import { observabilityPlugin, requestIdOf } from "#upstream/observability/http";
import type { VoiceSettings } from "#upstream/voice/settings";
import { voice } from "#upstream/voice/routes";

declare module "fastify" {
  interface FastifyInstance {
    /** Real-time notifications for users and supervisors: services publish, the stream route delivers. */
    notifications: NotificationBus;
    /** Agents' phones and calls (cti/service.ts); the dialer hands robot calls over through it. */
    cti: Cti;
  }
}

export interface BuildAppOptions {
  db: Db;
  /** The console's fixed client credential for `/uaa/oauth` (design §8). */
  clientId: string;
  clientSecret: string;
  logger?: FastifyServerOptions["logger"];
  cti?: Partial<CtiOptions>;
  /** Which process owns the CTI's memory (decision 037); by default this one, as on PGlite. */
  ownership?: Ownership;
  /** Registers the simulators' control routes (the dialer's clock, the CTI's calls, the chat customers): SIMULATOR_CONTROL=1, tests only. */
  simulatorControl?: boolean;
  /** Real media through SIP servers (decision 036); without it calls keep the simulated media. */
  voice?: VoiceSettings | null;
}

declare module "fastify" {
  interface FastifyInstance {
    /** The dialer simulator (simulators/dialer.ts); the server starts it, tests tick it. */
    dialer: Dialer;
  }
}

/**
 * The reference platform: plugins (database, errors, auth), then one route module per upstream
 * service. To add a service, write `routes/<service>.ts` exporting a FastifyPluginAsync and
 * register it below. The app does not open, migrate or close the database; its caller does.
 */
export function buildApp({
  db,
  clientId,
  clientSecret,
  logger = false,
  cti,
  simulatorControl = false,
  voice: voiceSettings = null,
  ownership = soleOwner(),
}: BuildAppOptions): FastifyInstance {
  installChineseValidationMessages();
  // Event streams never end by themselves: closing the app must not wait for them.
  // One log line per request (observability/http.ts), with the console's request id.
  const app = Fastify({
    logger,
    forceCloseConnections: true,
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestIdOf,
  });
  observabilityPlugin(app);

  // Plugins are applied to the root instance directly, so what they add is seen by every route.
  dbPlugin(app, db);
  errorsPlugin(app);
  authPlugin(app, { clientId, clientSecret });
  forwardToOwner(app, ownership);
  app.register(formbody);
  app.decorate("notifications", createNotificationBus(db));
  followRevocations(app);
  app.decorate("dialer", new Dialer(db));
  app.addHook("onClose", async () => app.dialer.stop());
  app.decorate("cti", createCti(db, app.notifications, { ...DEFAULT_CTI_OPTIONS, ...cti }));
  app.addHook("onClose", async () => app.cti.close());

  app.register(healthRoutes, { ownsCti: () => ownership.isOwner() });
  app.register(uaaRoutes);
  app.register(crmRoutes);
  app.register(configRoutes);
  app.register(eventRoutes);
  app.register(contactRoutes);
  app.register(recordsRoutes);
  app.register(robotRoutes);
  app.register(robotResourceRoutes);
  app.register(outboundRoutes, { simulatorControl });
  app.register(contactTraceRoutes);
  app.register(fileUploadRoutes);
  app.register(ctiRoutes);
  app.register(workbenchRoutes);
  app.register(auditRoutes);
  app.register(monitorRoutes);
  app.register(registrationRoutes, { simulatorControl });
  if (simulatorControl) app.register(registrationSimulatorRoutes);
  app.register(knowledgeRoutes);
  app.register(customerRoutes);
  app.register(clientLogRoutes);
  app.register(workOrderRoutes);
  app.register(inspectionRoutes);
  if (simulatorControl) app.register(ctiSimulatorRoutes);
  app.register(chatRoutes);
  if (simulatorControl) app.register(chatSimulatorRoutes);
  voice(app, voiceSettings, simulatorControl);

  return app;
}
