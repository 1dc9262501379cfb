import { sql, type Kysely } from "kysely";

// Sign-up and reset codes, continued (decision 024): a code now goes by SMS or by a voice
// call (offered after the second SMS), and every code request first answers a picture challenge,
// kept here with its answer hashed, used once.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("verification_codes")
    .addColumn("channel", "text", (col) =>
      col
        .notNull()
        .defaultTo("sms")
        .check(sql`channel IN ('sms', 'voice')`),
    )
    .execute();

  await db.schema
    .createTable("code_challenges")
    // A random token: it names the challenge in the form and salts the answer's hash.
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("answer_hash", "text", (col) => col.notNull())
    .addColumn("client_address", "text", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull())
    .addColumn("expires_at", "timestamptz", (col) => col.notNull())
    // Set by the first answer, right or wrong: a challenge is never answered twice.
    .addColumn("used_at", "timestamptz")
    .execute();
  await db.schema.createIndex("code_challenges_address_idx").on("code_challenges").columns(["client_address", "created_at"]).execute();
  await db.schema.createIndex("code_challenges_expires_idx").on("code_challenges").column("expires_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("code_challenges").execute();
  await db.schema.alterTable("verification_codes").dropColumn("channel").execute();
}
