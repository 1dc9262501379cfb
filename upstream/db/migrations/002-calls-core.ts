import { sql, type Kysely } from "kysely";

// The calls core shared by the call records (read), outbound (campaigns, batches, the dialer)
// and the voice workbench (CTI) work: campaigns, their task batches and the contacts each batch
// dials, the record of every finished call, and the transcript lines of each call. Codes follow
// contracts/codes.ts. Later work adds its own migrations on top.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("campaigns")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("type", "integer", (col) => col.notNull()) // CAMPAIGN_TYPES
    .addColumn("task_type", "integer", (col) => col.notNull().defaultTo(1)) // TASK_TYPES
    .addColumn("cycle", "integer", (col) => col.notNull().defaultTo(1)) // SCHEDULE_CYCLES
    .addColumn("state", "integer", (col) => col.notNull().defaultTo(0)) // CAMPAIGN_STATES
    .addColumn("ratio", "double precision", (col) => col.notNull().defaultTo(1))
    .addColumn("calling_list_name", "text")
    .addColumn("instance_name", "text") // robot name
    .addColumn("flow_id", "integer")
    .addColumn("flow_version_name", "text")
    .addColumn("queue_name", "text") // agents' queue for collaborative and manual campaigns
    .addColumn("caller_number", "text")
    .addColumn("windows", "jsonb", (col) => col.notNull().defaultTo(sql`'[]'::jsonb`)) // [{ start: "09:00", end: "12:00" }]
    .addColumn("start_date", "date")
    .addColumn("end_date", "date")
    .addColumn("max_attempts", "integer", (col) => col.notNull().defaultTo(1))
    .addColumn("created_by", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("campaigns_tenant_name_key").on("campaigns").columns(["tenant_id", "name"]).unique().execute();
  await db.schema.createIndex("campaigns_tenant_state_idx").on("campaigns").columns(["tenant_id", "state", "id"]).execute();

  await db.schema
    .createTable("task_batches")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("campaign_id", "integer", (col) => col.notNull().references("campaigns.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("status", "integer", (col) => col.notNull().defaultTo(13)) // BATCH_STATUSES
    .addColumn("total", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("next_run_at", "timestamptz")
    .addColumn("started_at", "timestamptz")
    .addColumn("finished_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("task_batches_tenant_campaign_idx").on("task_batches").columns(["tenant_id", "campaign_id", "id"]).execute();
  await db.schema.createIndex("task_batches_status_idx").on("task_batches").columns(["status", "next_run_at"]).execute();

  await db.schema
    .createTable("task_calls")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("campaign_id", "integer", (col) => col.notNull().references("campaigns.id").onDelete("cascade"))
    .addColumn("batch_id", "integer", (col) => col.notNull().references("task_batches.id").onDelete("cascade"))
    .addColumn("phone", "text", (col) => col.notNull())
    .addColumn("customer_name", "text")
    .addColumn("status", "integer", (col) => col.notNull().defaultTo(0)) // CALL_STATUSES
    .addColumn("hangup_party", "integer") // HANGUP_PARTIES
    .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("agent_user_id", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("user_data", "jsonb", (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("task_calls_batch_status_idx").on("task_calls").columns(["batch_id", "status", "id"]).execute();
  await db.schema.createIndex("task_calls_tenant_agent_idx").on("task_calls").columns(["tenant_id", "agent_user_id", "id"]).execute();

  await db.schema
    .createTable("call_records")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("cti_call_id", "text", (col) => col.notNull().unique())
    .addColumn("prev_cti_call_id", "text")
    .addColumn("direction", "text", (col) => col.notNull().check(sql`direction in ('outbound', 'inbound')`))
    .addColumn("campaign_id", "integer", (col) => col.references("campaigns.id").onDelete("set null"))
    .addColumn("batch_id", "integer", (col) => col.references("task_batches.id").onDelete("set null"))
    .addColumn("task_call_id", "bigint", (col) => col.references("task_calls.id").onDelete("set null"))
    .addColumn("campaign_type", "integer") // CAMPAIGN_TYPES
    .addColumn("call_kind", "integer", (col) => col.notNull().defaultTo(0)) // CALL_KINDS
    .addColumn("phone", "text", (col) => col.notNull())
    .addColumn("agent_user_id", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("queue_name", "text")
    .addColumn("is_answer", "integer", (col) => col.notNull().defaultTo(0)) // CONNECTED_FLAGS
    .addColumn("outbound_result", "text") // OUTCOME_CODES
    .addColumn("call_result", "integer", (col) => col.notNull()) // RESULT_CODES
    .addColumn("call_result_name", "text", (col) => col.notNull())
    .addColumn("intent", "text") // INTENT_LABELS
    .addColumn("qc_status", "integer", (col) => col.notNull().defaultTo(-1)) // QUALITY_CHECK_STATUSES
    .addColumn("conclusion", "integer") // CALL_RESULTS, once the agent records one
    .addColumn("hangup_party", "integer") // HANGUP_PARTIES
    .addColumn("call_time", "timestamptz", (col) => col.notNull())
    .addColumn("call_duration_ms", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("instance_name", "text")
    .addColumn("flow_id", "integer")
    .addColumn("flow_version_name", "text")
    .addColumn("gender", "integer", (col) => col.notNull().defaultTo(-1)) // GENDERS
    .addColumn("attach_data", "jsonb", (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("user_data", "jsonb", (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("group_dn", "text")
    .addColumn("dn", "text")
    .addColumn("recording", "text") // file name under upstream/fixtures/recordings, or null: no audio
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  // Lists page newest first with a (call_time, id) keyset, per tenant and per filter.
  await db.schema
    .createIndex("call_records_tenant_time_idx")
    .on("call_records")
    .columns(["tenant_id", "call_time desc", "id desc"])
    .execute();
  await db.schema
    .createIndex("call_records_tenant_phone_idx")
    .on("call_records")
    .columns(["tenant_id", "phone", "call_time desc"])
    .execute();
  await db.schema
    .createIndex("call_records_tenant_campaign_idx")
    .on("call_records")
    .columns(["tenant_id", "campaign_id", "call_time desc", "id desc"])
    .execute();
  await db.schema
    .createIndex("call_records_tenant_agent_idx")
    .on("call_records")
    .columns(["tenant_id", "agent_user_id", "call_time desc", "id desc"])
    .execute();

  await db.schema
    .createTable("call_dialogs")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("call_record_id", "bigint", (col) => col.notNull().references("call_records.id").onDelete("cascade"))
    .addColumn("seq", "integer", (col) => col.notNull())
    .addColumn("dialog_type", "integer", (col) => col.notNull().defaultTo(1)) // DIALOG_TYPES
    .addColumn("this_role", "integer", (col) => col.notNull()) // DIALOG_ROLES
    .addColumn("content", "text", (col) => col.notNull())
    .addColumn("nlu_result", "text")
    .addColumn("gender", "integer", (col) => col.notNull().defaultTo(-1))
    .addColumn("record_start_ms", "integer")
    .addColumn("record_end_ms", "integer")
    .execute();
  await db.schema.createIndex("call_dialogs_record_seq_key").on("call_dialogs").columns(["call_record_id", "seq"]).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("call_dialogs").execute();
  await db.schema.dropTable("call_records").execute();
  await db.schema.dropTable("task_calls").execute();
  await db.schema.dropTable("task_batches").execute();
  await db.schema.dropTable("campaigns").execute();
}
