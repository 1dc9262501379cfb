import { data } from "@remix-run/node";
import type { z } from "zod";
import { attempt, type rejectForm } from "#app/server/forms.server";
import { redirectWithToast } from "#app/server/toast.server";
import { listQueues } from "#app/services/config.server";
import { getFlowDesign, saveFlowDesign } from "#app/services/robot.server";
import type { Caller } from "#app/services/upstream.server";
import { editNodes, nodeName } from "./node-edits";
import type { DESIGN_SCHEMAS } from "./schema";

/** The refusal of the form posted: its errors, and a status other than 400. */
type Refuse = (errors: Parameters<typeof rejectForm>[1], status?: number) => ReturnType<typeof rejectForm>;

/** The page: the version's design (the draft, or the version asked for) and the queues a transfer node may name. */
export async function loadDesign(caller: Caller, id: number, version: number | undefined) {
  const [design, queues] = await Promise.all([getFlowDesign(caller, id, version), listQueues(caller)]);
  return { design, queues: queues.map((q) => q.name) };
}

/**
 * A node edited (saved, added, made the first, deleted after a confirmation) on the version the
 * form was read from, and the design saved with it.
 */
export async function editDesign(
  caller: Caller,
  id: number,
  input: z.infer<(typeof DESIGN_SCHEMAS)[keyof typeof DESIGN_SCHEMAS]>,
  refuse: Refuse,
) {
  const current = await attempt(() => getFlowDesign(caller, id, input.versionId));
  if (!current.ok) return refuse({ formErrors: [current.message] }, current.status);
  const nodes = current.value.nodes;
  if (input.intent === "node.delete" && !input.confirmed) {
    return data({ confirm: { key: input.key, name: nodeName(nodes, input.key), versionId: input.versionId, updatedAt: input.updatedAt } });
  }
  const edited = editNodes(nodes, input);
  if ("refused" in edited) return refuse(edited.refused);
  // Written on the version the form was read from, as it was then: never on a draft that replaced
  // it, never over a save made since, in another tab or by someone else (the platform refuses both, 409).
  const version = { versionId: input.versionId, updatedAt: input.updatedAt };
  const saved = await attempt(() => saveFlowDesign(caller, id, edited.nodes, version));
  if (!saved.ok) return refuse({ formErrors: [saved.message] }, saved.status);
  const problems = saved.value.problems.length;
  const here = `/robot/flow/${id}/design?version=${input.versionId}`;
  return redirectWithToast(here, problems ? `${edited.toast}；流程还有 ${problems} 个问题待修改` : edited.toast);
}
