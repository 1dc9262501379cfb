import { sql, type Kysely } from "kysely";

// Customers (decision 020): the tenant's custom properties, the contacts (crm_contacts,
// which the workbench's lookup by phone already reads) with their property values, named groups,
// the contact imports' rejected rows, and SMS templates with their review state.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("customer_properties")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("options", sql`text[]`, (col) => col.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn("required", "boolean", (col) => col.notNull().defaultTo(false))
    .addColumn("is_unique", "boolean", (col) => col.notNull().defaultTo(false))
    .addColumn("valid", "boolean", (col) => col.notNull().defaultTo(true))
    .addColumn("position", "integer", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("customer_properties_name_key", ["tenant_id", "name"])
    .addCheckConstraint("customer_properties_type_check", sql`type IN ('text', 'number', 'date', 'single', 'multi', 'phone')`)
    .execute();
  await db.schema.createIndex("customer_properties_order_idx").on("customer_properties").columns(["tenant_id", "position"]).execute();

  // Values keyed by property id ("12": "上海" or ["a","b"] for a multiple choice).
  await db.schema
    .alterTable("crm_contacts")
    .addColumn("properties", "jsonb", (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();
  await db.schema
    .alterTable("crm_contacts")
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  // One contact per phone and tenant (imports deduplicate on it): older duplicates go.
  await sql`DELETE FROM crm_contacts a USING crm_contacts b
            WHERE a.tenant_id = b.tenant_id AND a.phone = b.phone AND a.id < b.id`.execute(db);
  await db.schema.dropIndex("crm_contacts_tenant_phone_idx").execute();
  await db.schema.createIndex("crm_contacts_tenant_phone_key").unique().on("crm_contacts").columns(["tenant_id", "phone"]).execute();
  // The list: newest first per tenant (keyset on id); property filters by containment.
  await db.schema.createIndex("crm_contacts_tenant_id_idx").on("crm_contacts").columns(["tenant_id", "id"]).execute();
  await sql`CREATE INDEX crm_contacts_properties_idx ON crm_contacts USING gin (properties jsonb_path_ops)`.execute(db);

  await db.schema
    .createTable("contact_groups")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("contact_groups_name_key", ["tenant_id", "name"])
    .execute();
  await db.schema
    .createTable("contact_group_members")
    .addColumn("group_id", "integer", (col) => col.notNull().references("contact_groups.id").onDelete("cascade"))
    .addColumn("contact_id", "integer", (col) => col.notNull().references("crm_contacts.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("contact_group_members_pkey", ["group_id", "contact_id"])
    .execute();
  await db.schema.createIndex("contact_group_members_contact_idx").on("contact_group_members").columns(["contact_id"]).execute();

  await db.schema
    .createTable("crm_imports")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("file_name", "text", (col) => col.notNull())
    .addColumn("created", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("updated", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("rejected", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable("crm_import_errors")
    .addColumn("import_id", "integer", (col) => col.notNull().references("crm_imports.id").onDelete("cascade"))
    .addColumn("row_no", "integer", (col) => col.notNull())
    .addColumn("phone", "text", (col) => col.notNull())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("reason", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("crm_import_errors_pkey", ["import_id", "row_no"])
    .execute();

  await db.schema
    .createTable("sms_templates")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("signature", "text", (col) => col.notNull())
    .addColumn("content", "text", (col) => col.notNull())
    .addColumn("state", "text", (col) => col.notNull().defaultTo("pending"))
    .addColumn("reason", "text")
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("sms_templates_name_key", ["tenant_id", "name"])
    .addCheckConstraint("sms_templates_state_check", sql`state IN ('pending', 'approved', 'rejected')`)
    .execute();
  await db.schema
    .alterTable("sms_messages")
    .addColumn("template_id", "integer", (col) => col.references("sms_templates.id").onDelete("set null"))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sms_messages").dropColumn("template_id").execute();
  await db.schema.dropTable("sms_templates").execute();
  await db.schema.dropTable("crm_import_errors").execute();
  await db.schema.dropTable("crm_imports").execute();
  await db.schema.dropTable("contact_group_members").execute();
  await db.schema.dropTable("contact_groups").execute();
  await sql`DROP INDEX crm_contacts_properties_idx`.execute(db);
  await db.schema.dropIndex("crm_contacts_tenant_id_idx").execute();
  await db.schema.dropIndex("crm_contacts_tenant_phone_key").execute();
  await db.schema.createIndex("crm_contacts_tenant_phone_idx").on("crm_contacts").columns(["tenant_id", "phone"]).execute();
  await db.schema.alterTable("crm_contacts").dropColumn("updated_at").execute();
  await db.schema.alterTable("crm_contacts").dropColumn("properties").execute();
  await db.schema.dropTable("customer_properties").execute();
}
