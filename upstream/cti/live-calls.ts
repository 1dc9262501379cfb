import { sql } from "kysely";
import type { Db } from "#upstream/db";
import type { Call } from "./types";

/**
 * The calls the CTI holds in memory, kept in the database as they change (decision 051), so that
 * the process that owns the CTI next (or this one, started again) can record the calls of one
 * that died without a word: a graceful stop records them itself. Writes for one call go in turn,
 * so its row never comes back after the call ended.
 */
export function createLiveCalls(db: Db) {
  const turns = new Map<string, Promise<void>>();
  const inTurn = (ctiCallId: string, step: () => Promise<unknown>) => {
    const next = (turns.get(ctiCallId) ?? Promise.resolve()).then(step).then(
      () => undefined,
      (error: unknown) => console.error("[cti] keeping a live call failed", error),
    );
    turns.set(ctiCallId, next);
    void next.then(() => turns.get(ctiCallId) === next && turns.delete(ctiCallId));
    return next;
  };

  return {
    /** The call as it is now (nothing once it has ended). */
    keep(call: Call): Promise<void> {
      return inTurn(call.ctiCallId, async () => {
        if (call.ended) return;
        const row = { cti_call_id: call.ctiCallId, tenant_id: call.tenantId, call: JSON.stringify(call), updated_at: sql<Date>`now()` };
        await db
          .insertInto("cti_live_calls")
          .values(row)
          .onConflict((oc) => oc.column("cti_call_id").doUpdateSet({ call: row.call, updated_at: row.updated_at }))
          .execute();
      });
    },
    /** The call ended and is recorded. */
    forget(ctiCallId: string): Promise<void> {
      return inTurn(ctiCallId, () => db.deleteFrom("cti_live_calls").where("cti_call_id", "=", ctiCallId).execute());
    },
    /** Says the calls kept are still live (their owner runs): a cut call's end is its last such moment. */
    async stillLive(ctiCallIds: string[]): Promise<void> {
      if (ctiCallIds.length === 0) return;
      await db
        .updateTable("cti_live_calls")
        .set({ updated_at: sql<Date>`now()` })
        .where("cti_call_id", "in", ctiCallIds)
        .execute();
    },
    /** Calls kept by a process that is gone, with the last moment they were known live. */
    async orphans(): Promise<Array<{ call: Call; lastLiveAt: number }>> {
      const rows = await db.selectFrom("cti_live_calls").select(["call", "updated_at"]).execute();
      return rows.map((row) => ({ call: row.call as Call, lastLiveAt: new Date(row.updated_at).getTime() }));
    },
  };
}
