import { sql, type Kysely } from "kysely";

// A robot instance's speaker, gateway line and working calendar (decision 030): the
// speaker is a code of ROBOT_SPEAKERS (contracts/codes.ts), the line one of the tenant's
// robot_gateway_lines (gone with it), and whether the dialer follows the tenant's working
// calendar (robot_working_days, robot_festivals) for the campaigns that use it.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("robot_instances").addColumn("speaker", "text").execute();
  await db.schema
    .alterTable("robot_instances")
    .addColumn("line_id", "integer", (col) => col.references("robot_gateway_lines.id").onDelete("set null"))
    .execute();
  await db.schema
    .alterTable("robot_instances")
    .addColumn("follow_calendar", "boolean", (col) => col.notNull().defaultTo(sql`false`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ["follow_calendar", "line_id", "speaker"])
    await db.schema.alterTable("robot_instances").dropColumn(column).execute();
}
