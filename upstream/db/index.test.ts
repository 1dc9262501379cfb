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
