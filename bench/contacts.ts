import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { buildApp } from "#upstream/app";
import { openDatabase } from "#upstream/db";
import { migrateToLatest } from "#upstream/db/migrate";
import { nameContains } from "#upstream/repositories/customers";
import { DEMO_PASSWORD, seedDemo } from "#upstream/seed/demo";

/**
 * Contacts at scale (decision 020): CONTACTS generated contacts (default a million) in tenant demo,
 * each with a city and a level, a tenth of them VIP and one in a hundred in a group; then the median
 * time of the platform answering POST /crm_v2/contacts/v1/list for page 1, a page 95 % deep by its
 * keyset cursor, the same two filtered by a property value, a group's first page and a keyword
 * (a phone's digits); then the import of a CSV of IMPORT rows (default 100,000: half new phones,
 * half already there, so half are updates), through POST /crm_v2/contacts/v1/import and again
 * through the mapping step (…/import/upload, …/import/mapped). In-process (app.inject): the
 * platform's own time, no network.
 * Run: node --import tsx bench/contacts.ts [CONTACTS] [IMPORT]   (DATABASE_URL for PostgreSQL, else PGlite in memory)
 */
const contacts = Number(process.argv[2] ?? 1_000_000);
const importRows = Number(process.argv[3] ?? 100_000);
const database = await openDatabase(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : { inMemory: true });
const db = database.db;
await migrateToLatest(db);
await seedDemo(db);

const app = buildApp({ db, clientId: "web-console", clientSecret: "web-console-secret", logger: { level: "warn" } });
const login = await app.inject({
  method: "POST",
  url: "/uaa/oauth/token",
  headers: { authorization: `Basic ${Buffer.from("web-console:web-console-secret").toString("base64")}` },
  payload: { grant_type: "password", username: "admin", password: DEMO_PASSWORD },
});
const token = (login.json() as { access_token: string }).access_token;
const headers = { authorization: `Bearer ${token}` };
const post = async (url: string, payload: object) => {
  const response = await app.inject({ method: "POST", url, headers, payload });
  if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body.slice(0, 200)}`);
  return (response.json() as { data: Record<string, unknown> }).data;
};
const city = (await post("/crm_v2/customer/property", { name: "城市", type: "text" })).id as number;
const level = (await post("/crm_v2/customer/property", { name: "等级", type: "single", options: ["普通", "VIP"] })).id as number;
const group = (await post("/crm_v2/groups/v1", { name: "压测分组" })).id as number;

// Generated in batches, each one statement: phones 139 followed by the contact's number, names of
// three characters from 20 surnames and 30 given-name characters (18,000 names, each ~56 times).
const SURNAMES = [..."王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗"];
const GIVEN = [..."伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红鹏辉"];
const tenant = await db.selectFrom("tenants").select("id").where("code", "=", "demo").executeTakeFirstOrThrow();
let started = performance.now();
// As a bulk load is done: the GIN indexes (trigrams, properties) dropped, then built again from
// their own definitions once the rows are in (1M rows through them one by one took minutes).
const ginIndexes = await sql<{ indexname: string; indexdef: string }>`
  SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'crm_contacts' AND indexdef LIKE '% USING gin %'`.execute(db);
for (const index of ginIndexes.rows) await sql`DROP INDEX ${sql.ref(index.indexname)}`.execute(db);
const BATCH = 100_000;
for (let from = 1; from <= contacts; from += BATCH) {
  const to = Math.min(contacts, from + BATCH - 1);
  await sql`INSERT INTO crm_contacts (tenant_id, name, phone, properties, updated_at)
            SELECT ${tenant.id}, (${SURNAMES}::text[])[1 + g % 20] || (${GIVEN}::text[])[1 + (g / 20) % 30] || (${GIVEN}::text[])[1 + (g / 600) % 30],
                   '139' || lpad(g::text, 8, '0'),
                   jsonb_build_object(${String(city)}::text, (ARRAY['上海','北京','广州','深圳'])[1 + g % 4],
                                      ${String(level)}::text, CASE WHEN g % 10 = 0 THEN 'VIP' ELSE '普通' END),
                   now()
            FROM generate_series(${from}::int, ${to}::int) g`.execute(db);
}
await sql`INSERT INTO contact_group_members (group_id, contact_id)
          SELECT ${group}, id FROM crm_contacts WHERE tenant_id = ${tenant.id} AND id % 100 = 0`.execute(db);
for (const index of ginIndexes.rows) await sql.raw(index.indexdef).execute(db);
await sql`ANALYZE crm_contacts`.execute(db);
await sql`ANALYZE contact_group_members`.execute(db);
console.log(`generated ${contacts} contacts in ${((performance.now() - started) / 1000).toFixed(0)} s`);

async function median(name: string, body: object, times = 15) {
  const spent: number[] = [];
  let total = 0;
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    const data = await post("/crm_v2/contacts/v1/list", body);
    spent.push(performance.now() - t);
    total = data.total as number;
  }
  spent.sort((a, b) => a - b);
  console.log(`${name}: median ${spent[Math.floor(times / 2)].toFixed(1)} ms, max ${spent[times - 1].toFixed(1)} ms (total ${total})`);
}

/** The keyset cursor of a page `share` deep: the id of the last row before it, newest first. */
const cursorAt = async (share: number, filter?: string) => {
  const row = await db
    .selectFrom("crm_contacts")
    .select("id")
    .where("tenant_id", "=", tenant.id)
    .$if(filter !== undefined, (q) => q.where(sql<boolean>`properties @> ${filter}::jsonb`))
    .orderBy("id", "desc")
    .offset(Math.floor(contacts * share * (filter ? 0.1 : 1)))
    .limit(1)
    .executeTakeFirstOrThrow();
  return row.id;
};
const vip = { [String(level)]: "VIP" };
await median("list, page 1", { pageSize: 20 });
await median("list, 95 % deep by cursor", { pageSize: 20, pageNo: 47_500, after: await cursorAt(0.95) });
await median("list 等级=VIP, page 1", { pageSize: 20, values: vip });
await median("list 等级=VIP, 95 % deep by cursor", {
  pageSize: 20,
  pageNo: 4_750,
  values: vip,
  after: await cursorAt(0.95, JSON.stringify(vip)),
});
await median("list of a group (1 %), page 1", { pageSize: 20, groupId: group });
// Each keyword's page read by the database, as EXPLAIN ANALYZE shows it: the index used and the
// rows read are the figures machine load does not move.
async function plan(keyword: string, after?: number) {
  const digits = keyword.replace(/[\s-]/g, "");
  const condition = /^\d+$/.test(digits) ? sql`(${nameContains(keyword)} OR phone LIKE ${`%${digits}%`})` : nameContains(keyword);
  const seek = after === undefined ? sql`` : sql`AND id < ${after}`;
  const explained = await sql<{ "QUERY PLAN": string }>`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON)
    SELECT id FROM crm_contacts WHERE tenant_id = ${tenant.id} AND ${condition} ${seek} ORDER BY id DESC LIMIT 20`.execute(db);
  const lines = explained.rows.map((r) => r["QUERY PLAN"].trim()).filter((l) => !l.startsWith("Planning"));
  console.log(`plan of keyword ${keyword}${after === undefined ? "" : " (95 % deep)"}: ${lines.join(" | ")}`);
}
const deep = await cursorAt(0.95);
for (const keyword of [String(contacts - 7).padStart(8, "0"), "4321", "13", "张伟芳", "伟芳", "张", "欧阳"]) {
  await plan(keyword);
  await plan(keyword, deep);
}
await median("list, keyword (a surname), 95 % deep by cursor", { pageSize: 20, pageNo: 47_500, after: deep, keyword: "张" }, 5);
await median(
  "list, keyword (two characters of names), 95 % deep by cursor",
  { pageSize: 20, pageNo: 47_500, after: deep, keyword: "伟芳" },
  5,
);
await median("list, keyword (2 digits), page 1", { pageSize: 20, keyword: "13" }, 5);
await median("list, keyword (a phone's last 8 digits)", { pageSize: 20, keyword: String(contacts - 7).padStart(8, "0") }, 5);
await median("list, keyword (4 digits: many contacts)", { pageSize: 20, keyword: "4321" }, 5);
await median("list, keyword (a whole name)", { pageSize: 20, keyword: "张伟芳" }, 5);
await median("list, keyword (two characters of names)", { pageSize: 20, keyword: "伟芳" }, 5);
await median("list, keyword (a surname)", { pageSize: 20, keyword: "张" }, 5);
await median("list, keyword (no contact has it)", { pageSize: 20, keyword: "欧阳" }, 5);

// The import: half the phones new, half already there.
const lines = ["姓名,手机号,城市,等级"];
for (let i = 0; i < importRows; i++) {
  const n = i % 2 === 0 ? contacts + i + 1 : i + 1;
  lines.push(`导入${i},139${String(n).padStart(8, "0")},杭州,${i % 3 === 0 ? "VIP" : "普通"}`);
}
const csv = Buffer.from(lines.join("\n"));
function multipart(url: string, fileName: string, content: Buffer) {
  const boundary = "----switchboard-bench";
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return app.inject({
    method: "POST",
    url,
    headers: { ...headers, "content-type": `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}
started = performance.now();
const imported = await multipart("/crm_v2/contacts/v1/import", "contacts.csv", csv);
if (imported.statusCode !== 200) throw new Error(`import: ${imported.statusCode} ${imported.body.slice(0, 200)}`);
const result = (imported.json() as { data: { created: number; updated: number; rejected: number } }).data;
console.log(
  `import of ${importRows} rows (${(csv.length / 1024 / 1024).toFixed(1)} MB CSV): ${((performance.now() - started) / 1000).toFixed(1)} s` +
    ` (created ${result.created}, updated ${result.updated}, rejected ${result.rejected})`,
);
started = performance.now();
const staged = await multipart("/crm_v2/contacts/v1/import/upload", "contacts.csv", csv);
const upload = (staged.json() as { data: { uploadId: number; columns: Array<{ target: string }> } }).data;
const uploadedAt = performance.now();
const mapped = await post("/crm_v2/contacts/v1/import/mapped", { uploadId: upload.uploadId, mapping: upload.columns.map((c) => c.target) });
console.log(
  `the same through the mapping step: upload ${((uploadedAt - started) / 1000).toFixed(1)} s, import ${((performance.now() - uploadedAt) / 1000).toFixed(1)} s` +
    ` (created ${mapped.created}, updated ${mapped.updated}, rejected ${mapped.rejected})`,
);
await median("list, page 1, after the imports", { pageSize: 20 }, 5);
await app.close();
await database.close();
