import { data } from "@remix-run/node";
import type { z } from "zod";
import { attempt, deletionStep, type rejectForm } from "#app/server/forms.server";
import { redirectWithToast } from "#app/server/toast.server";
import { selectCampaigns } from "#app/services/outbound.server";
import {
  deleteFestival,
  getTaskDispatch,
  getWorkingWeek,
  listFestivals,
  saveFestival,
  saveWorkingWeek,
} from "#app/services/robot-resources.server";
import type { Caller } from "#app/services/upstream.server";
import { SCREEN, type CalendarQuery, type INTENT_SCHEMAS } from "./schema";

type Input<I extends keyof typeof INTENT_SCHEMAS> = z.infer<(typeof INTENT_SCHEMAS)[I]>;
/** What every change needs: who posts, and the refusal of the form posted (the platform's message). */
export type Posted = { caller: Caller; fail: (done: { message: string; status: number }) => ReturnType<typeof rejectForm> };

/** The page: the working week, the festivals (the one edited), the campaigns and the calls of the one previewed. */
export async function loadCalendar(caller: Caller, query: CalendarQuery, what: string) {
  const [days, festivals, campaigns, dispatch] = await Promise.all([
    getWorkingWeek(caller),
    listFestivals(caller),
    selectCampaigns(caller),
    query.campaign ? getTaskDispatch(caller, query.campaign) : null,
  ]);
  const editing = typeof query.festival === "number" ? (festivals.find((f) => f.id === query.festival) ?? null) : null;
  if (typeof query.festival === "number" && !editing) throw data({ message: "节假日不存在", status: 404, what }, { status: 404 });
  return { query, days, festivals, editing, campaigns, dispatch };
}

/** The hours a robot calls on each day of the week. */
export async function saveWorkingWeekForm({ caller, fail }: Posted, input: Input<"working.save">) {
  const done = await attempt(() => saveWorkingWeek(caller, input.days));
  if (!done.ok) return fail(done);
  return redirectWithToast(SCREEN, "工作日历已保存");
}

/** A festival (no calls on its days) added or changed, or deleted after a confirmation. */
export async function changeFestival({ caller, fail }: Posted, input: Input<"festival.save" | "festival.delete">) {
  if (input.intent === "festival.save") {
    const { intent: _intent, id, ...festival } = input;
    const done = await attempt(() => saveFestival(caller, id ?? null, festival));
    if (!done.ok) return fail(done);
    return redirectWithToast(SCREEN, `节假日「${done.value.name}」已保存`);
  }
  const step = deletionStep(input);
  if (step) return step;
  const done = await attempt(() => deleteFestival(caller, input.id));
  if (!done.ok) return fail(done);
  return redirectWithToast(SCREEN, "节假日已删除");
}
