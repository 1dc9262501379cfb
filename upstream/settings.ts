import path from "node:path";

/** The console's client credential when none is configured (design §8). */
export const DEFAULT_CLIENT_ID = "web-console";
export const DEFAULT_CLIENT_SECRET = "web-console-secret";

export interface Settings {
  port: number;
  host: string;
  /** PGlite's files live in `<dataDir>/pglite`; unused when `databaseUrl` is set. */
  dataDir: string;
  databaseUrl: string | undefined;
  seedDemo: boolean;
  clientId: string;
  clientSecret: string;
  logLevel: string;
  /** Simulated dialer time per real time (DIALER_SPEED, default 1); 0 leaves the dialer off. */
  dialerSpeed: number;
  /** SIMULATOR_CONTROL=1 exposes the dialer's clock to end-to-end tests; never in production. */
  simulatorControl: boolean;
  /** CTI_ACW_SECONDS: the after-call work period. */
  acwSeconds: number;
  /** CTI_RING_SECONDS: how long an offered call rings at an agent when its queue sets nothing (default 20). */
  ringSeconds: number;
  /** Inbound calls arrive on their own for ready agents: on with the demo data, so a newcomer's agent gets calls; CTI_SIMULATED_TRAFFIC=0 turns it off. */
  simulatedTraffic: boolean;
  /** Simulated chat customers write by themselves (demos); CHAT_SIMULATOR=0 turns them off. */
  chatSimulator: boolean;
  /** The demo's sales team works its queue by itself (AGENT_SIMULATOR, on with the demo data; 0 turns it off). */
  agentSimulator: boolean;
}

/** The platform's settings from the environment (design §8 names and defaults). */
export function readSettings(env: Record<string, string | undefined>): Settings {
  const port = Number(env.UPSTREAM_PORT ?? 3001);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`UPSTREAM_PORT is not a port: ${env.UPSTREAM_PORT}`);
  const seedDemo = on(env.SEED_DEMO);
  return {
    port,
    host: env.UPSTREAM_HOST || "127.0.0.1",
    dataDir: path.resolve(env.DATA_DIR || "./data"),
    databaseUrl: env.DATABASE_URL || undefined,
    seedDemo,
    clientId: env.UPSTREAM_CLIENT_ID || DEFAULT_CLIENT_ID,
    clientSecret: env.UPSTREAM_CLIENT_SECRET || DEFAULT_CLIENT_SECRET,
    logLevel: env.LOG_LEVEL || "info",
    dialerSpeed: Math.max(0, Number(env.DIALER_SPEED ?? 1) || 0),
    simulatorControl: env.SIMULATOR_CONTROL === "1",
    acwSeconds: Math.max(1, Number(env.CTI_ACW_SECONDS) || 30),
    ringSeconds: Math.max(5, Number(env.CTI_RING_SECONDS) || 20),
    simulatedTraffic: seedDemo && on(env.CTI_SIMULATED_TRAFFIC),
    chatSimulator: on(env.CHAT_SIMULATOR),
    agentSimulator: seedDemo && on(env.AGENT_SIMULATOR),
  };
}

/** A switch that is on unless set to 0 or false. */
const on = (value: string | undefined) => value !== "0" && value !== "false";
