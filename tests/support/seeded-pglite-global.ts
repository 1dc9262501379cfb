import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { dumpSeededPglite } from "#upstream/testing";

declare module "vitest" {
  export interface ProvidedContext {
    /** A file holding a migrated, demo-seeded PGlite's dump, which each test file starts from. */
    seededPglite: string;
  }
}

/**
 * Global setup of the projects that run platforms on PGlite: migrates and seeds once per run,
 * where each test file did it again (seconds each), and hands the files a dump to start from.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(path.join(tmpdir(), "switchboard-seeded-"));
  const file = path.join(dir, "seeded.tar");
  writeFileSync(file, Buffer.from(await (await dumpSeededPglite()).arrayBuffer()));
  project.provide("seededPglite", file);
  return () => rmSync(dir, { recursive: true, force: true });
}
