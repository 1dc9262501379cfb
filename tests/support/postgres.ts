import { randomBytes } from "node:crypto";
import pg from "pg";

export interface TestDatabase {
  url: string;
  /** Drops the database (closing any connection still open to it). */
  drop(): Promise<void>;
}

/**
 * A fresh database on the test cluster, empty or a copy of `template`, so each test file starts
 * from its own and files can run in parallel. `adminUrl` is the cluster URL that
 * `postgres-global.ts` provides.
 */
export async function createTestDatabase(adminUrl: string, { template }: { template?: string } = {}): Promise<TestDatabase> {
  const name = `switchboard_test_${randomBytes(6).toString("hex")}`;
  await withAdmin(adminUrl, async (client) => {
    await client.query(template ? `create database "${name}" template "${template}"` : `create database "${name}"`);
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withAdmin(adminUrl, async (client) => {
        // A pool's end() resolves before its sockets have closed: forcing the drop while a backend
        // is still leaving kills it mid-goodbye, and that client then raises an error nobody
        // listens to any more. Give them a moment to leave; force only what stays.
        for (let waited = 0; waited < 2_000; waited += 20) {
          const { rows } = await client.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where datname = $1", [name]);
          if (rows[0].n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await client.query(`drop database if exists "${name}" with (force)`);
      }),
  };
}

async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
