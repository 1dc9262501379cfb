import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "#upstream/db";
import { migrateAndSeed } from "#upstream/testing";
import { createTestDatabase } from "./postgres";

declare module "vitest" {
  export interface ProvidedContext {
    /** Admin URL of the throwaway PostgreSQL cluster; null when no server binaries exist. */
    postgresUrl: string | null;
    /** A migrated, demo-seeded database on that cluster, which each test file copies. */
    postgresTemplate: string | null;
  }
}

/**
 * Global setup of the `platform-postgres` project: a throwaway PostgreSQL cluster for the run.
 * initdb refuses to run as root, so as root the cluster belongs to, and runs as, the `postgres`
 * OS user. It listens on a free loopback port with trust auth, keeps its socket in its own temp
 * directory, and is stopped and deleted in teardown.
 */
export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  const bin = findPostgresBin();
  if (!bin) {
    console.log("platform-postgres: no PostgreSQL server binaries (/usr/lib/postgresql/*/bin); its tests are skipped.");
    project.provide("postgresUrl", null);
    project.provide("postgresTemplate", null);
    return undefined;
  }

  const root = mkdtempSync(path.join(tmpdir(), "switchboard-pg-"));
  const dataDir = path.join(root, "data");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(root, pgUser().uid, pgUser().gid);
  const run = (command: string, args: string[]) => runAs(asRoot, path.join(bin, command), args);

  const port = await freePort();
  try {
    run("initdb", ["-D", dataDir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync", "--locale=C"]);
    // Durability is pointless for a cluster deleted after the run; turning it off makes it fast.
    const serverOptions = [
      "-c listen_addresses=127.0.0.1",
      `-c port=${port}`,
      `-k ${root}`,
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
    ].join(" ");
    run("pg_ctl", ["-D", dataDir, "-o", serverOptions, "-l", path.join(root, "server.log"), "-w", "start"]);
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }

  console.log(`platform-postgres: PostgreSQL ${path.basename(path.dirname(bin))} on 127.0.0.1:${port}`);
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  project.provide("postgresUrl", adminUrl);
  // Migrated and seeded once; each file's database is a copy (CREATE DATABASE ... TEMPLATE).
  const template = await createTestDatabase(adminUrl);
  const database = await openDatabase({ databaseUrl: template.url });
  try {
    await migrateAndSeed(database.db);
  } finally {
    await database.close();
  }
  project.provide("postgresTemplate", new URL(template.url).pathname.slice(1));

  return () => {
    try {
      run("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };
}

/** The newest installed server's bin directory that has both initdb and pg_ctl. */
function findPostgresBin(): string | undefined {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base).sort((a, b) => Number(b) - Number(a));
  return versions
    .map((version) => path.join(base, version, "bin"))
    .find((bin) => existsSync(path.join(bin, "initdb")) && existsSync(path.join(bin, "pg_ctl")));
}

function pgUser(): { uid: number; gid: number } {
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
  return { uid, gid };
}

function runAs(asRoot: boolean, command: string, args: string[]): void {
  const [file, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
  const result = spawnSync(file, argv, { encoding: "utf8", cwd: tmpdir() });
  if (result.status !== 0) {
    throw new Error(`${path.basename(command)} failed (${result.status}): ${result.stderr || result.stdout}`);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
