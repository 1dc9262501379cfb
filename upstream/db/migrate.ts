import { Migrator, NO_MIGRATIONS, type Migration, type MigrationResultSet } from "kysely";
import type { Db } from "./";
import * as m001 from "#upstream/db/migrations/001-foundation";
import * as m002 from "#upstream/db/migrations/002-calls-core";
import * as m003 from "#upstream/db/migrations/003-agent-events";
import * as m010 from "#upstream/db/migrations/010-call-records-read";
import * as m020 from "#upstream/db/migrations/020-outbound";
import * as m030 from "#upstream/db/migrations/030-workbench";
import * as m040 from "#upstream/db/migrations/040-chat";
import * as m060 from "#upstream/db/migrations/060-outbound-keyset";
import * as m061 from "#upstream/db/migrations/061-campaign-choices";
import * as m062 from "#upstream/db/migrations/062-batch-history";
import * as m063 from "#upstream/db/migrations/063-batch-open-calls";
import * as m064 from "#upstream/db/migrations/064-batch-call-counts";
import * as m070 from "#upstream/db/migrations/070-audit-log";
import * as m075 from "#upstream/db/migrations/075-sms-outbox";
import * as m080 from "#upstream/db/migrations/080-notifications";
import * as m085 from "#upstream/db/migrations/085-monitor";
import * as m090 from "#upstream/db/migrations/090-sign-in-failures";
import * as m100 from "#upstream/db/migrations/100-registration";
import * as m110 from "#upstream/db/migrations/110-knowledge";
import * as m120 from "#upstream/db/migrations/120-inspection";
import * as m130 from "#upstream/db/migrations/130-robots";
import * as m140 from "#upstream/db/migrations/140-customers";
import * as m150 from "#upstream/db/migrations/150-work-orders";
import * as m160 from "#upstream/db/migrations/160-queue-settings";
import * as m170 from "#upstream/db/migrations/170-code-challenges";
import * as m180 from "#upstream/db/migrations/180-contact-import-uploads";
import * as m190 from "#upstream/db/migrations/190-work-order-links";
import * as m240 from "#upstream/db/migrations/240-contact-search";
import * as m280 from "#upstream/db/migrations/280-background-imports";
import * as m290 from "#upstream/db/migrations/290-inspection-forms";
import * as m300 from "#upstream/db/migrations/300-flow-params-and-handoff-queues";
import * as m310 from "#upstream/db/migrations/310-robot-resources";
import * as m320 from "#upstream/db/migrations/320-robot-instance-voice-line-calendar";
import * as m340 from "#upstream/db/migrations/340-dialling-calls-by-campaign";
import * as m350 from "#upstream/db/migrations/350-inspection-form-names-and-evaluation-versions";
import * as m355 from "#upstream/db/migrations/355-queue-acw-auto-ready";
import * as m395 from "#upstream/db/migrations/395-contact-name-key";
import * as m396 from "#upstream/db/migrations/396-call-record-poor-quality";
import * as m397 from "#upstream/db/migrations/397-cti-live-calls";
import * as m398 from "#upstream/db/migrations/398-task-calls-lighter-writes";
import * as m399 from "#upstream/db/migrations/399-call-links-indexed";

/**
 * Every migration, in order. Listed statically (not read from disk) so the esbuild bundle of the
 * server carries them. To add one: write `migrations/NNN-name.ts` exporting `up` (and `down`),
 * import it here and add it under its file name; names sort, so keep the zero-padded prefix.
 */
export const migrations: Record<string, Migration> = {
  "001-foundation": m001,
  "002-calls-core": m002,
  "003-agent-events": m003,
  "010-call-records-read": m010,
  "020-outbound": m020,
  "030-workbench": m030,
  "040-chat": m040,
  "060-outbound-keyset": m060,
  "061-campaign-choices": m061,
  "062-batch-history": m062,
  "063-batch-open-calls": m063,
  "064-batch-call-counts": m064,
  "070-audit-log": m070,
  "075-sms-outbox": m075,
  "080-notifications": m080,
  "085-monitor": m085,
  "090-sign-in-failures": m090,
  "100-registration": m100,
  "110-knowledge": m110,
  "120-inspection": m120,
  "130-robots": m130,
  "140-customers": m140,
  "150-work-orders": m150,
  "160-queue-settings": m160,
  "170-code-challenges": m170,
  "180-contact-import-uploads": m180,
  "190-work-order-links": m190,
  "240-contact-search": m240,
  "280-background-imports": m280,
  "290-inspection-forms": m290,
  "300-flow-params-and-handoff-queues": m300,
  "310-robot-resources": m310,
  "320-robot-instance-voice-line-calendar": m320,
  "340-dialling-calls-by-campaign": m340,
  "350-inspection-form-names-and-evaluation-versions": m350,
  "355-queue-acw-auto-ready": m355,
  "395-contact-name-key": m395,
  "396-call-record-poor-quality": m396,
  "397-cti-live-calls": m397,
  "398-task-calls-lighter-writes": m398,
  "399-call-links-indexed": m399,
};

function migrator(db: Db): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

/** Brings the schema up to date; throws if a migration fails (nothing after it runs). */
export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  const resultSet = await migrator(db).migrateToLatest();
  if (resultSet.error) {
    const failed = resultSet.results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    throw new Error(`migration ${failed} failed`, { cause: resultSet.error });
  }
  return resultSet;
}

/** Reverts every migration (tests use it to prove the `down` steps work). */
export async function migrateToNone(db: Db): Promise<MigrationResultSet> {
  const resultSet = await migrator(db).migrateTo(NO_MIGRATIONS);
  if (resultSet.error) throw new Error("reverting migrations failed", { cause: resultSet.error });
  return resultSet;
}
