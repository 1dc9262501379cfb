import type { Tone } from "../../contracts/codes";

/** A PrimeReact tag in a code's tone (spec §2/§4 colours); 'none' is the neutral secondary tag. */
export function CodeTag({ tone, children }: { tone: Tone; children: string }) {
  const severity = tone === "none" ? "secondary" : tone;
  return <span className={`p-tag p-component p-tag-${severity}`}>{children}</span>;
}
