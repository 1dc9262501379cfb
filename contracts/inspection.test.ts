import { describe, expect, it } from "vitest";
import { QC_RESULTS, QUALITY_CHECK_STATUSES, codesOf, labelOf } from "./codes";
import { InspectionScoreSchema, qcMoveAllowed } from "./inspection";

describe("the quality-check statuses and their moves", () => {
  it("are spec §3's codes and labels", () => {
    expect(QUALITY_CHECK_STATUSES.map((s) => [s.code, s.label])).toEqual([
      [-1, "未质检"],
      [0, "意向不明确"],
      [1, "明确办理"],
      [2, "质检中"],
      [3, "无意向"],
    ]);
    expect(codesOf(QC_RESULTS)).toEqual([0, 1, 3]);
  });

  it("allow claiming a waiting or locked call, scoring only a locked one, revising only a result", () => {
    expect(qcMoveAllowed("claim", -1, 2)).toBe(true);
    expect(qcMoveAllowed("claim", 1, 2)).toBe(false);
    expect(qcMoveAllowed("score", 2, 3)).toBe(true);
    expect(qcMoveAllowed("score", 2, 2)).toBe(false);
    expect(qcMoveAllowed("score", -1, 1)).toBe(false);
    expect(qcMoveAllowed("release", 2, -1)).toBe(true);
    expect(qcMoveAllowed("release", 0, -1)).toBe(false);
    expect(qcMoveAllowed("revise", 0, 1)).toBe(true);
    expect(qcMoveAllowed("revise", 2, 1)).toBe(false);
  });

  it("refuse an unknown result and a long remark in Chinese", () => {
    const bad = InspectionScoreSchema.safeParse({ callId: 1, checkResult: 7, influence: 0, remark: "x".repeat(501) });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.message)).toEqual(["质检结果无效，只能是意向不明确、明确办理或无意向", "备注不能超过500个字符"]);
    expect(labelOf(QUALITY_CHECK_STATUSES, 1)).toBe("明确办理");
  });
});
