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
        <CodeOptions table={table} />
      </select>
    </div>
  );
}

/**
 * Just the `<option>`s of a code table's entries (or of `namedChoices`, `nameChoices`), for a select
 * whose own markup is not `CodeSelect`'s (conform's props, its own aria). Not in the islands that do
 * not load this module already (the voice workbench, an agent's monitor page, the scoring view):
 * its chunk would add about 0.4 KB gzip to each (decision 060), so they map their tables themselves.
 */
export function CodeOptions<C extends string | number>({ table }: { table: CodeTable<C> }) {
  return table.map((entry) => (
    <option key={entry.code} value={entry.code}>
      {entry.label}
    </option>
  ));
}

/** A list's filter (inside a `FilterBar`): a table's entries after 全部, which filters nothing. */
export function FilterSelect<C extends string | number>({
  id,
  name,
  label,
  table,
  value,
}: {
  id: string;
  name: string;
  label: string;
  table: CodeTable<C>;
  /** The filter's value in the URL, if any. */
  value: string | number | null | undefined;
}) {
  return <CodeSelect id={id} name={name} label={label} table={table} defaultValue={value == null ? "" : String(value)} empty="全部" />;
}

/** Named records (groups, campaigns, templates) as a `CodeSelect` table: the id chosen, the name shown. */
export const namedChoices = (records: ReadonlyArray<{ id: number; name: string }>) => records.map((r) => ({ code: r.id, label: r.name }));
/** Plain names (queues) as a `CodeSelect` table: the name is both what is chosen and what is shown. */
export const nameChoices = (names: ReadonlyArray<string>) => names.map((name) => ({ code: name, label: name }));
