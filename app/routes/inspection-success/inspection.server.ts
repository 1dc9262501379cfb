import { data } from "@remix-run/node";
import type { z } from "zod";
import { TEXT_AGENT_WORK_TYPE } from "#contracts/codes";
import { QC_LOCK_MINUTES, type InspectionPage } from "#contracts/inspection";
import type { Access } from "#app/server/access.server";
import { attempt, type rejectForm } from "#app/server/forms.server";
import { redirectWithToast } from "#app/server/toast.server";
import { listUsers } from "#app/services/crm.server";
import { getRealtimeStart } from "#app/services/events.server";
import {
  applyInspections,
  listInspectionAccess,
  listInspections,
  orderInspections,
  reallotInspections,
  recoverInspections,
} from "#app/services/inspection.server";
import type { Caller } from "#app/services/upstream.server";
import { filterProblem, platformQuery, type InspectionScreenQuery, type ListIntentSchema } from "./query.server";
import { pageCursors, SCREEN } from "./queue";

type Input<I extends z.infer<typeof ListIntentSchema>["intent"]> = Extract<z.infer<typeof ListIntentSchema>, { intent: I }>;
/** What every change needs: who posts, the screen's query (to go back to), and the refusal of this form. */
export type Posted = { caller: Caller; search: string; fail: (message: string, status?: number) => ReturnType<typeof rejectForm> };

/**
 * The page: a page of calls (none when the filters can match nothing), and for an inspector the
 * agents to filter by, the inspectors to reallot to and where the live queue's stream starts.
 */
export async function loadInspections({ caller, user }: Access, query: InspectionScreenQuery) {
  const problem = filterProblem(query);
  const inspector = user.role !== "agent";
  // The live queue's stream starts where the tenant's notifications are now, before the list is
  // read: a change in between arrives again and sets the row as it is (decision 033).
  // Without it (the events service failing) the page is what it is without JavaScript: not live.
  const startId = inspector ? await getRealtimeStart(caller, { scope: "tenant" }).catch(() => null) : null;
  const [page, agents, access] = await Promise.all([
    problem ? Promise.resolve<InspectionPage>({ list: [], total: 0 }) : listInspections(caller, platformQuery(query)),
    inspector
      ? listUsers(caller).then((users) =>
          users.list.filter((u) => u.role === "agent" && u.workType !== TEXT_AGENT_WORK_TYPE).map((u) => ({ id: u.id, name: u.realName })),
        )
      : Promise.resolve([]),
    inspector ? listInspectionAccess(caller) : Promise.resolve(null),
  ]);
  return data(
    {
      query,
      problem,
      page,
      inspector,
      userId: user.id,
      agents,
      inspectors: access?.inspectors ?? [],
      asOf: Date.now(),
      startId,
      cursors: pageCursors(page.list),
    },
    { status: problem ? 400 : 200 },
  );
}

/** Calls taken into the inspector's own queue: a number of waiting ones, or those ticked. */
export async function claimCalls({ caller, fail }: Posted, input: Input<"apply" | "order">) {
  if (input.intent === "apply") {
    const done = await attempt(() => applyInspections(caller, { count: input.count }));
    if (!done.ok) return fail(done.message, done.status);
    if (done.value.done === 0) return fail("没有可领取的待质检通话（已接通、在您的质检范围内）");
    return redirectWithToast(`${SCREEN}?mine=1`, `已领取 ${done.value.done} 条通话，锁定${QC_LOCK_MINUTES}分钟`);
  }
  const done = await attempt(() => orderInspections(caller, { ids: input.ids }));
  if (!done.ok) return fail(done.message, done.status);
  return data({ bulk: { what: "领取", ...done.value } });
}

/** The calls ticked reallotted to other inspectors or recovered to the waiting pool, after a confirmation. */
export async function moveCalls({ caller, search, fail }: Posted, input: Input<"reallot" | "recovery">) {
  if (!input.confirmed) {
    const fields: Record<string, string | string[]> = { intent: input.intent, ids: input.ids.map(String), reason: input.reason ?? "" };
    if (input.intent === "reallot") fields.inspectorIds = input.inspectorIds.map(String);
    return data({
      confirm: {
        intent: input.intent,
        fields,
        count: input.ids.length,
        inspectors: input.intent === "reallot" ? input.inspectorIds.length : 0,
      },
    });
  }
  const done = await attempt(() =>
    input.intent === "reallot"
      ? reallotInspections(caller, { ids: input.ids, inspectorIds: input.inspectorIds, reason: input.reason ?? "" })
      : recoverInspections(caller, { ids: input.ids, reason: input.reason ?? "" }),
  );
  if (!done.ok) return fail(done.message, done.status);
  return data({ bulk: { what: input.intent === "reallot" ? "改派" : "收回", ...done.value }, here: `${SCREEN}${search}` });
}
