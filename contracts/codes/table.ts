// What a code table is, and how a code's label and colour are read from one.

/**
 * A code's colour. The five meanings (success green, danger red, warning amber, info blue, none
 * grey) come first; the hues after them let every state of a table have its own colour (a table
 * has up to eleven), while a label keeps one colour in every table (contracts/codes.test.ts).
 */
export type Tone = "success" | "danger" | "warning" | "info" | "none" | "indigo" | "violet" | "teal" | "pink" | "olive" | "brown";

/** A code table: the codes in display order, each with its label (and tone where it has one). */
export type CodeTable<C extends string | number> = ReadonlyArray<{ code: C; label: string; tone?: Tone }>;

export function labelOf<C extends string | number>(table: CodeTable<C>, code: C | null | undefined, unknown = "未知"): string {
  return table.find((entry) => entry.code === code)?.label ?? unknown;
}
export function toneOf<C extends string | number>(table: CodeTable<C>, code: C | null | undefined): Tone {
  return table.find((entry) => entry.code === code)?.tone ?? "none";
}
export function codesOf<C extends string | number>(table: CodeTable<C>): C[] {
  return table.map((entry) => entry.code);
}
