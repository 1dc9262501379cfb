import { randomBytes } from "node:crypto";
import { readFile, rename, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { FastifyInstance } from "fastify";
import { buildApp, type BuildAppOptions } from "./app";
import { openDatabase, pgliteOf, type Db } from "#upstream/db";
import { migrateToLatest } from "#upstream/db/migrate";
import { seedDemo } from "#upstream/seed/demo";
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from "./settings";

export { DEMO_PASSWORD } from "#upstream/seed/demo";

/** The client credential test platforms accept: the defaults the console also falls back to. */
export const TEST_CLIENT = { clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET } as const;

export interface PreparedPlatform {
  app: FastifyInstance;
  db: Db;
  /** Closes the app, then the database. */
  close(): Promise<void>;
}

export interface TestPlatform extends PreparedPlatform {
  /** Base URL, e.g. http://127.0.0.1:40123 (no trailing slash). */
  url: string;
}

/**
 * A migrated, demo-seeded platform app that is not listening (for `app.inject`): in-memory
 * PGlite, or the PostgreSQL database at `databaseUrl` (throwaway: empty, or a copy of the seeded
 * template with `seeded`).
 */
export async function preparePlatform(
  opts: {
    databaseUrl?: string;
    logger?: BuildAppOptions["logger"];
    /** The database is migrated and seeded already (a copy of a seeded template). */
    seeded?: boolean;
    /** A dump of a migrated, seeded PGlite to start from (see `dumpSeededPglite`). */
    pgliteDump?: Blob;
    /** Registers the simulators' control routes (BuildAppOptions.simulatorControl). */
    simulatorControl?: boolean;
  } = {},
): Promise<PreparedPlatform> {
  const database = await openDatabase(
    opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : { inMemory: true, pgliteTemplate: opts.pgliteDump ?? (await pgliteTemplate()) },
  );
  try {
    if (!opts.seeded && !opts.pgliteDump) {
      await migrateAndSeed(database.db);
    }
  } catch (error) {
    await database.close();
    throw error;
  }
  const app = buildApp({ db: database.db, ...TEST_CLIENT, logger: opts.logger, simulatorControl: opts.simulatorControl });
  return {
    app,
    db: database.db,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/** The same platform listening on 127.0.0.1 on a free port, for tests that call it over HTTP. */
export async function startTestPlatform(opts: Parameters<typeof preparePlatform>[0] = {}): Promise<TestPlatform> {
  const platform = await preparePlatform(opts);
  try {
    const url = await platform.app.listen({ host: "127.0.0.1", port: 0 });
    return { ...platform, url };
  } catch (error) {
    await platform.close();
    throw error;
  }
}

/**
 * A dump of a freshly initialised, empty PGlite cluster. initdb is most of a new PGlite's start
 * (about 4 s here; starting from the dump takes about 1 s), and every test file wants a fresh
 * database. The dump is made once per PGlite version and kept in the temp directory; concurrent
 * makers each write their own file and rename it into place, so readers never see half of one.
 */
export async function pgliteTemplate(): Promise<Blob> {
  const file = path.join(tmpdir(), `switchboard-pglite-${await pgliteVersion()}.tar`);
  try {
    return new Blob([await readFile(file)]);
  } catch {
    const pglite = await PGlite.create();
    const dump = await pglite.dumpDataDir("none");
    await pglite.close();
    const partial = `${file}.${randomBytes(6).toString("hex")}`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, file);
    return dump;
  }
}

async function pgliteVersion(): Promise<string> {
  // The package's exports map hides package.json; find it beside the resolved entry point.
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const manifest = JSON.parse(await readFile(path.join(path.dirname(entry), "..", "package.json"), "utf8"));
  return String(manifest.version);
}

/**
 * Migrates and seeds `db` (an empty database), the state every platform test starts from. A test
 * run does this once, into a template that each test file then copies (tests/support/*-global.ts):
 * migrating and seeding take seconds, a copy a fraction of that.
 */
export async function migrateAndSeed(db: Db): Promise<void> {
  await migrateToLatest(db);
  await seedDemo(db);
}

/** A migrated, seeded PGlite's data directory as a dump, for `preparePlatform({ pgliteDump })`. */
export async function dumpSeededPglite(): Promise<Blob> {
  const database = await openDatabase({ inMemory: true, pgliteTemplate: await pgliteTemplate() });
  try {
    await migrateAndSeed(database.db);
    return await pgliteOf(database.db)!.dumpDataDir("none");
  } finally {
    await database.close();
  }
}
