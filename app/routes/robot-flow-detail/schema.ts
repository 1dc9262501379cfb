import { z } from "zod";
import { FLOW_PARAMS_MAX, FlowParamInputSchema, FlowParamsSaveSchema, type FlowParamsSave } from "#contracts/robot";

/** The two lists of a version's parameters, as the form names their rows. */
export const PARAM_KINDS = [
  { kind: "input", label: "入参" },
  { kind: "state", label: "输出状态" },
] as const;
/** Blank rows the form offers after the parameters a version has (to add more: save, and it offers blank rows again). */
export const BLANK_PARAM_ROWS = 3;

export const paramField = (kind: string, field: "Name" | "Variable", row: number) => `${kind}${field}${row}`;

const text = z.string().trim().optional().default("");
const rowFields = Object.fromEntries(
  PARAM_KINDS.flatMap(({ kind }) =>
    Array.from({ length: FLOW_PARAMS_MAX }, (_, i) => [
      [paramField(kind, "Name", i), text],
      [paramField(kind, "Variable", i), text],
    ]).flat(),
  ),
);

/**
 * The parameters form: numbered rows of a name and a variable per list; a row left empty is no
 * parameter (clearing a row removes it). It names the version it was loaded from (id and
 * updatedAt). Each row is checked as the platform checks it, and its
 * error is put on the row's own field, so the form shows it there with everything typed kept.
 */
export const ParamsFormSchema = z
  .object({
    intent: z.literal("params"),
    // The draft the form was loaded from: the platform refuses (409) if it is no longer the draft.
    versionId: FlowParamsSaveSchema.shape.versionId,
    updatedAt: FlowParamsSaveSchema.shape.updatedAt,
    ...rowFields,
  })
  .transform((form, ctx): { intent: "params"; params: FlowParamsSave } => {
    const row = form as unknown as Record<string, string>;
    const params: FlowParamsSave = { input: [], state: [], versionId: form.versionId, updatedAt: form.updatedAt };
    for (const { kind } of PARAM_KINDS) {
      const seen = new Set<string>();
      for (let i = 0; i < FLOW_PARAMS_MAX; i++) {
        const name = row[paramField(kind, "Name", i)];
        const variable = row[paramField(kind, "Variable", i)];
        if (!name && !variable) continue;
        const parsed = FlowParamInputSchema.safeParse({ name, variable });
        if (!parsed.success) {
          for (const issue of parsed.error.issues)
            ctx.addIssue({
              code: "custom",
              path: [paramField(kind, issue.path[0] === "name" ? "Name" : "Variable", i)],
              message: issue.message,
            });
          continue;
        }
        if (seen.has(parsed.data.variable))
          ctx.addIssue({ code: "custom", path: [paramField(kind, "Variable", i)], message: `变量名「${parsed.data.variable}」重复` });
        seen.add(parsed.data.variable);
        params[kind].push(parsed.data);
      }
    }
    return { intent: "params", params };
  });
