import { sql } from "kysely";
import { expect, it } from "vitest";
import { openDatabase } from "./";

it("runs PGlite with a 16 MB buffer cache, which the platform holds in its own memory", async () => {
  const database = await openDatabase({ inMemory: true });
  try {
    const { rows } = await sql<{ shared_buffers: string }>`SHOW shared_buffers`.execute(database.db);
    expect(rows[0].shared_buffers).toBe("16MB");
  } finally {
    await database.close();
  }
});

it("lets the platform's other work run between PGlite statements, so a long chain of them holds no request", async () => {
  const database = await openDatabase({ inMemory: true });
  try {
    // PGlite answers on this thread through promises alone: without a turn given, a request that
    // arrived meanwhile (I/O, like this callback) waited for the whole chain.
    const served: number[] = [];
    let statements = 0;
    const arrive = () => setImmediate(() => served.push(statements));
    arrive();
    for (let i = 0; i < 3; i++) {
      await sql`SELECT 1`.execute(database.db);
      statements += 1;
      arrive();
    }
    // Each arrival is served before the next statement runs.
    expect(served).toEqual([0, 1, 2]);
  } finally {
    await database.close();
  }
});
