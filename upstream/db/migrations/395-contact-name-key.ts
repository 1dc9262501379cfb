import { sql, type Kysely } from "kysely";

// Migration 240 indexed a name's trigrams on the hex of its UTF-8 bytes. Hex has 16 symbols and
// every Chinese character starts with e4–e9 and continues with 8–b, so its trigrams are few and
// common: a two-character keyword at a million contacts intersected ten posting lists of hundreds
// of thousands of rows each (28 ms in the GIN scan alone, 84 ms a page). The key is now each
// character's code point as three base-36 digits (mod 36³, which covers the CJK block; beyond it
// characters share keys, and the query rechecks the name): a character is one trigram of its own,
// so even a one-character keyword has a trigram to look up, and two characters are selective.
// plpgsql, not SQL: ~6 µs a name on PostgreSQL where the SQL version (unnest, string_agg) took ~20.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX crm_contacts_name_trgm_idx`.execute(db);
  await sql`DROP FUNCTION contact_search_key(text)`.execute(db);
  await sql`CREATE FUNCTION contact_name_key(value text) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
            DECLARE
              digits constant text := '0123456789abcdefghijklmnopqrstuvwxyz';
              key text := '';
              code int;
            BEGIN
              FOR i IN 1..length(value) LOOP
                code := ascii(substr(value, i, 1));
                key := key || substr(digits, code / 1296 % 36 + 1, 1) || substr(digits, code / 36 % 36 + 1, 1) || substr(digits, code % 36 + 1, 1);
              END LOOP;
              RETURN key;
            END $$`.execute(db);
  // Kept in the row, not only in the index: a trigram match is always rechecked on the row, and
  // computing the key again for each candidate (~50 µs in PGlite) cost more than the search.
  await sql`ALTER TABLE crm_contacts ADD COLUMN name_key text GENERATED ALWAYS AS (contact_name_key(name)) STORED`.execute(db);
  // New rows wait in a GIN index's pending list, which every search reads through: 1 MB of it at
  // most (4 MB by default) between merges, which imports do at their end (customers.ts).
  await sql`CREATE INDEX crm_contacts_name_key_idx ON crm_contacts USING gin (name_key gin_trgm_ops)
            WITH (gin_pending_list_limit = 1024)`.execute(db);
  await sql`ALTER INDEX crm_contacts_phone_trgm_idx SET (gin_pending_list_limit = 1024)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER INDEX crm_contacts_phone_trgm_idx RESET (gin_pending_list_limit)`.execute(db);
  await sql`DROP INDEX crm_contacts_name_key_idx`.execute(db);
  await sql`ALTER TABLE crm_contacts DROP COLUMN name_key`.execute(db);
  await sql`DROP FUNCTION contact_name_key(text)`.execute(db);
  await sql`CREATE FUNCTION contact_search_key(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
            AS $$ SELECT encode(convert_to(value, 'UTF8'), 'hex') $$`.execute(db);
  await sql`CREATE INDEX crm_contacts_name_trgm_idx ON crm_contacts USING gin (contact_search_key(name) gin_trgm_ops)`.execute(db);
}
