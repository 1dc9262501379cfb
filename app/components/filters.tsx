import type { ReactNode } from "react";
import type { CodeTable } from "../../contracts/codes";

/** A list's filters: a GET form, so they live in the URL and work without JavaScript. */
export function FilterBar({ label, children }: { label: string; children: ReactNode }) {
  return (
    <form method="get" className="sb-filters" aria-label={label}>
      {children}
      <button type="submit" className="p-button">
        查询
      </button>
    </form>
  );
}

/** A labelled select over a code table, with 全部 for no filter. */
export function CodeSelect<C extends string | number>({ id, name, label, table, value }: { id: string; name: string; label: string; table: CodeTable<C>; value: C | undefined }) {
  return (
    <div className="sb-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} className="p-inputtext" defaultValue={value ?? ""}>
        <option value="">全部</option>
        {table.map((entry) => (
          <option key={entry.code} value={entry.code}>
            {entry.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A message above a screen's content: errors are alerts, the rest are polite status updates. */
export function Notice({ tone, children }: { tone: "error" | "info" | "success"; children: ReactNode }) {
  return (
    <div className={`p-message p-message-${tone} sb-message`} role={tone === "error" ? "alert" : "status"}>
      {children}
    </div>
  );
}
