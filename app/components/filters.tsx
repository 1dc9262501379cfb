import type { ReactNode } from "react";

/**
 * A list's filters, the one filter bar of every list: a GET form, so they live in the URL and work
 * without JavaScript; labels above their fields; 查询 (primary) and 重置 (secondary, back to
 * `resetHref`, the list unfiltered) at the end, the same size everywhere. A new filter starts at
 * page 1 and keeps the page size (`size`) the user chose.
 */
export function FilterBar({
  label,
  resetHref,
  size,
  action,
  search = false,
  children,
}: {
  label: string;
  resetHref: string;
  size?: number | string;
  /** Where the form goes, when not the current path (a list under a dialog's URL). */
  action?: string;
  /** A search box more than a filter: the form is a search landmark. */
  search?: boolean;
  children: ReactNode;
}) {
  return (
    <form method="get" action={action} className="sb-filters" role={search ? "search" : undefined} aria-label={label}>
      {children}
      {size === undefined ? null : <input type="hidden" name="size" value={size} />}
      <div className="sb-filter-actions">
        <button type="submit" className="p-button">
          <i className="pi pi-search" aria-hidden="true" /> 查询
        </button>
        <a href={resetHref} className="p-button p-button-secondary p-button-outlined">
          重置
        </a>
      </div>
    </form>
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
