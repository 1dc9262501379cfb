import type { CodeTable } from "#contracts/codes";

/** A labelled select of a code table's entries (contracts/codes.ts), with an optional empty choice first. */
export function CodeSelect<C extends string | number>({
  id,
  name,
  label,
  table,
  defaultValue,
  empty,
  required,
}: {
  id: string;
  name: string;
  label: string;
  table: CodeTable<C>;
  defaultValue: string;
  empty?: string;
  required?: boolean;
}) {
  return (
    <div className="sb-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} className="p-inputtext" defaultValue={defaultValue} required={required}>
        {empty !== undefined ? <option value="">{empty}</option> : null}
        {table.map((entry) => (
          <option key={entry.code} value={entry.code}>
            {entry.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Named records (groups, campaigns, templates) as a `CodeSelect` table: the id chosen, the name shown. */
export const namedChoices = (records: ReadonlyArray<{ id: number; name: string }>) => records.map((r) => ({ code: r.id, label: r.name }));
