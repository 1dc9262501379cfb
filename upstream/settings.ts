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
  /** Simulated chat customers write by themselves (demos); CHAT_SIMULATOR=0 turns them off. */
  chatSimulator: boolean;
  /** SIMULATOR_CONTROL=1 lets tests drive the simulated customers step by step. */
  simulatorControl: boolean;
}

/** The platform's settings from the environment (design §8 names and defaults). */
export function readSettings(env: NodeJS.ProcessEnv): Settings {
  const port = Number(env.UPSTREAM_PORT ?? 3001);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`UPSTREAM_PORT is not a port: ${env.UPSTREAM_PORT}`);
  return {
    port,
    host: env.UPSTREAM_HOST || "127.0.0.1",
    dataDir: path.resolve(env.DATA_DIR || "./data"),
    databaseUrl: env.DATABASE_URL || undefined,
    seedDemo: env.SEED_DEMO !== "0" && env.SEED_DEMO !== "false",
    clientId: env.UPSTREAM_CLIENT_ID || DEFAULT_CLIENT_ID,
    clientSecret: env.UPSTREAM_CLIENT_SECRET || DEFAULT_CLIENT_SECRET,
    logLevel: env.LOG_LEVEL || "warn",
    chatSimulator: env.CHAT_SIMULATOR !== "0" && env.CHAT_SIMULATOR !== "false",
    simulatorControl: env.SIMULATOR_CONTROL === "1",
  };
}
