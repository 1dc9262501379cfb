import { sql, type Kysely } from "kysely";

// The contacts' keyword search is a contains-match on the name or the phone (LIKE '%…%'), which no
// B-tree serves: at a million contacts every search read the whole table (0.4–0.6 s on PostgreSQL).
// Trigram indexes (pg_trgm: trusted on PostgreSQL 13+, bundled with PGlite) serve it. Phones are
// digits, which make trigrams in any locale. Chinese names make none under the C locale (its
// letters are ASCII), so the name is indexed as the hex of its UTF-8 bytes: a name contains the
// keyword only if its hex contains the keyword's hex, and the query rechecks the name itself.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  // Immutable in fact: the database's encoding, UTF8, never changes.
  await sql`CREATE FUNCTION contact_search_key(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
            AS $$ SELECT encode(convert_to(value, 'UTF8'), 'hex') $$`.execute(db);
  await sql`CREATE INDEX crm_contacts_name_trgm_idx ON crm_contacts USING gin (contact_search_key(name) gin_trgm_ops)`.execute(db);
  await sql`CREATE INDEX crm_contacts_phone_trgm_idx ON crm_contacts USING gin (phone gin_trgm_ops)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX crm_contacts_phone_trgm_idx`.execute(db);
  await sql`DROP INDEX crm_contacts_name_trgm_idx`.execute(db);
  await sql`DROP FUNCTION contact_search_key(text)`.execute(db);
}
