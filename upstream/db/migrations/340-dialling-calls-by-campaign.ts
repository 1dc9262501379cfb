import { sql, type Kysely } from "kysely";

// A gateway line limits its robots' calls (decision 031): before starting calls the
// dialer counts the calls in progress (status 1, dialling) of every campaign whose robot uses the
// line, and the line list shows that count. A call is dialling for one tick, so these rows are
// few among millions: a partial index finds them by campaign without reading the others.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("task_calls_dialling_campaign_idx")
    .on("task_calls")
    .column("campaign_id")
    .where(sql.ref("status"), "=", 1)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("task_calls_dialling_campaign_idx").execute();
}
