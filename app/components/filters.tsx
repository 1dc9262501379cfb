import type { ReactNode } from "react";

/**
 * A list's filters: a GET form, so they live in the URL and work without JavaScript. A new filter
 * starts at page 1 and keeps the page size (`size`) the user chose.
 */
export function FilterBar({ label, size, children }: { label: string; size?: number; children: ReactNode }) {
  return (
    <form method="get" className="sb-filters" aria-label={label}>
      {children}
      {size === undefined ? null : <input type="hidden" name="size" value={size} />}
      <button type="submit" className="p-button">
        查询
      </button>
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
