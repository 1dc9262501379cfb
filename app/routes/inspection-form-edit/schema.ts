import { z } from "zod";
import { ScoreFormDescriptionSchema, ScoreFormItemInputSchema, ScoreFormNameSchema, refineScoreItems } from "#contracts/inspection";
import { QC_FORM_ITEMS_MAX } from "#contracts/inspection-limits";

/**
 * The scoring form's editor as posted: one row per item (items[i].title, .weight, .allowNa,
 * .veto, and its kept .key). Rows are added and removed with conform's list intents, which post
 * the form too, so the editor works without JavaScript. The platform checks the same contract.
 */
export const ScoreFormEditSchema = z
  .object({
    name: ScoreFormNameSchema,
    description: ScoreFormDescriptionSchema,
    items: z
      .array(ScoreFormItemInputSchema, { required_error: "请至少添加一个评分项" })
      .min(1, "请至少添加一个评分项")
      .max(QC_FORM_ITEMS_MAX, `评分项不能超过${QC_FORM_ITEMS_MAX}个`),
  })
  .superRefine(refineScoreItems);
