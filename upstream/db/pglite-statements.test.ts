import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PreparedStatements } from "./pglite-statements";
import { sharedParsers } from "./type-parsers";

// PGlite only (the layer is PGlite's): the platform-postgres project leaves this file out.
describe("prepared statements on PGlite", () => {
  let pglite: PGlite;
  beforeAll(async () => {
    pglite = await PGlite.create({ parsers: sharedParsers });
    await pglite.exec(`CREATE TABLE notes (id serial PRIMARY KEY, body text, at timestamptz, done boolean, size bigint, meta jsonb)`);
  });
  afterAll(async () => {
    await pglite?.close();
  });

  const kept = async () =>
    (await pglite.query<{ name: string }>("SELECT name FROM pg_prepared_statements ORDER BY name")).rows.map((row) => row.name);

  it("answers as PGlite's own query does, for every kind of value, and prepares each text once", async () => {
    const statements = new PreparedStatements(pglite);
    const at = new Date("2026-11-22T03:04:05.678Z");
    const insert = "INSERT INTO notes (body, at, done, size, meta) VALUES ($1, $2, $3, $4, $5) RETURNING *";
    const inserted = await statements.query<{ id: number; body: string }>(insert, [
      "客户说 'O''Brien' \\ 好",
      at,
      true,
      9007199254740993n,
      JSON.stringify({ a: [1, "二"] }),
    ]);
    const same = await pglite.query("SELECT * FROM notes WHERE id = $1", [inserted.rows[0].id]);
    expect(inserted.rows).toEqual(same.rows);
    expect(inserted.rows[0]).toMatchObject({ body: "客户说 'O''Brien' \\ 好", at, done: true, meta: { a: [1, "二"] } });
    await statements.query(insert, [null, null, null, null, null]);

    const select = "SELECT id, body FROM notes WHERE at IS NOT DISTINCT FROM $1 ORDER BY id";
    for (let i = 0; i < 8; i++)
      expect((await statements.query(select, [at])).rows).toEqual([{ id: inserted.rows[0].id, body: inserted.rows[0].body }]);
    expect((await statements.query(select, [null])).rows).toHaveLength(1);
    const updated = await statements.query("UPDATE notes SET done = $1 WHERE id > $2", [false, 0]);
    expect(updated).toMatchObject({ command: "UPDATE", affectedRows: 2 });
    expect(statements.size).toBe(3);
    expect(await kept()).toHaveLength(3);
  });

  it("closes the oldest statement once it keeps its limit", async () => {
    await pglite.exec("DEALLOCATE ALL");
    const statements = new PreparedStatements(pglite, 2);
    for (const n of [1, 2, 3]) expect((await statements.query(`SELECT $1::int + ${n} AS n`, [n])).rows).toEqual([{ n: 2 * n }]);
    expect(statements.size).toBe(2);
    expect(await kept()).toHaveLength(2);
    expect((await statements.query("SELECT $1::int + 1 AS n", [5])).rows).toEqual([{ n: 6 }]);
  });

  it("fails a statement with PostgreSQL's error and goes on working", async () => {
    const statements = new PreparedStatements(pglite);
    await expect(statements.query("SELECT FROM WHERE", [])).rejects.toMatchObject({ code: "42601" });
    await expect(statements.query("SELECT id FROM notes WHERE id = $1", ["not a number"])).rejects.toMatchObject({ code: "22P02" });
    expect((await statements.query("SELECT count(*)::int AS n FROM notes WHERE id > $1", [0])).rows).toEqual([{ n: 2 }]);
  });

  it("takes part in the session's transaction", async () => {
    const statements = new PreparedStatements(pglite);
    await pglite.query("BEGIN");
    await statements.query("INSERT INTO notes (body) VALUES ($1)", ["回滚"]);
    expect((await statements.query("SELECT count(*)::int AS n FROM notes WHERE body = $1", ["回滚"])).rows).toEqual([{ n: 1 }]);
    await pglite.query("ROLLBACK");
    expect((await statements.query("SELECT count(*)::int AS n FROM notes WHERE body = $1", ["回滚"])).rows).toEqual([{ n: 0 }]);
  });

  it("prepares afresh a statement whose table changed under it", async () => {
    await pglite.exec("DEALLOCATE ALL");
    const statements = new PreparedStatements(pglite);
    const all = "SELECT * FROM notes WHERE id = $1";
    const [first] = (await statements.query<{ id: number }>(all, [1])).rows;
    await pglite.exec("ALTER TABLE notes ADD COLUMN tag text DEFAULT '新'");
    await expect(statements.query(all, [first.id])).rejects.toMatchObject({ code: "0A000" });
    expect((await statements.query(all, [first.id])).rows[0]).toMatchObject({ id: first.id, tag: "新" });
    expect(await kept()).toHaveLength(1);
  });

  it("answers a result of more rows than a call may take arguments (a large import's read)", async () => {
    const statements = new PreparedStatements(pglite);
    const result = await statements.query<{ n: number }>("SELECT n FROM generate_series(1, $1::int) AS n", [300_000]);
    expect(result.rows).toHaveLength(300_000);
    expect(result.rows.at(-1)).toEqual({ n: 300_000 });
  });
});
