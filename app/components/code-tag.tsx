import { labelOf, toneOf, type CodeTable, type Tone } from "#contracts/codes";

/** A PrimeReact tag in a code's tone (spec §2/§4 colours); 'none' is the neutral secondary tag. */
export function CodeTag({ tone, children }: { tone: Tone; children: string }) {
  const severity = tone === "none" ? "secondary" : tone;
  return <span className={`p-tag p-component p-tag-${severity}`}>{children}</span>;
}

/** A code of a code table as its Chinese label, in its tone; "-" when there is none. */
export function CodeLabel<C extends string | number>({ table, code }: { table: CodeTable<C>; code: C | null | undefined }) {
  if (code === null || code === undefined) return <>-</>;
  return <CodeTag tone={toneOf(table, code)}>{labelOf(table, code)}</CodeTag>;
}
