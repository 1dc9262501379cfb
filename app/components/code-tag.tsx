import { CALL_QUALITY_ISSUES, labelOf, toneOf, type CodeTable, type Tone } from "#contracts/codes";
import type { PoorQuality } from "#contracts/contact";

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

/** 通话质量较差: the agent's softphone found the call's audio poor; `detailed` also says why and how long. */
export function PoorQualityTag({ poor, detailed = false }: { poor: PoorQuality; detailed?: boolean }) {
  const why = poor.issues.map((issue) => labelOf(CALL_QUALITY_ISSUES, issue)).join("、");
  return <CodeTag tone="warning">{detailed ? `通话质量较差（${why}，约 ${poor.seconds} 秒）` : "通话质量较差"}</CodeTag>;
}
