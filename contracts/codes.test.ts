import { describe, expect, it } from "vitest";
import * as codes from "./codes";

/** Every exported code table (an array of { code, label } entries). */
const tables = Object.entries(codes as Record<string, unknown>).filter(
  (entry): entry is [string, codes.CodeTable<string | number>] =>
    Array.isArray(entry[1]) && entry[1].every((row: unknown) => typeof row === "object" && row !== null && "code" in row && "label" in row),
);

describe("status colours are owned by the code tables", () => {
  it("finds the code tables", () => {
    expect(tables.map(([name]) => name)).toEqual(expect.arrayContaining(["CAMPAIGN_STATES", "BATCH_STATUSES", "WORK_ORDER_STATES"]));
  });

  it("gives one status the same colour on every screen: a label has one tone across all tables", () => {
    const toneByLabel = new Map<string, { tone: codes.Tone; table: string }>();
    const clashes: string[] = [];
    for (const [name, table] of tables) {
      for (const entry of table) {
        if (!entry.tone) continue;
        const seen = toneByLabel.get(entry.label);
        if (seen && seen.tone !== entry.tone) clashes.push(`${entry.label}: ${seen.table} ${seen.tone}, ${name} ${entry.tone}`);
        else toneByLabel.set(entry.label, { tone: entry.tone, table: name });
      }
    }
    expect(clashes).toEqual([]);
  });

  it("gives each state of a table its own colour, so no two states of one list look alike", () => {
    const shared: string[] = [];
    for (const [name, table] of tables) {
      if (!table.some((entry) => entry.tone)) continue;
      const labelByTone = new Map<codes.Tone, string>();
      for (const entry of table) {
        const tone = codes.toneOf(table, entry.code);
        const seen = labelByTone.get(tone);
        if (seen !== undefined && seen !== entry.label) shared.push(`${name}: ${seen} and ${entry.label} are both ${tone}`);
        labelByTone.set(tone, entry.label);
      }
    }
    expect(shared).toEqual([]);
  });
});
