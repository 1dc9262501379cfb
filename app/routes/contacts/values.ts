import { IMPORT_TARGETS, type ContactImportUpload, type CustomerContact, type CustomerProperty } from "#contracts/customers";
import { withParams } from "#app/lib/list-url";

export const SCREEN = "/contacts";

/** The screen's address with filters kept and some parameters changed; the contact edited or shown is dropped. */
export function screenHref(search: string, change: Record<string, string | number | undefined>) {
  const params = new URLSearchParams(search);
  params.delete("edit");
  params.delete("history");
  return withParams(SCREEN, params, change);
}

/** Property filters of the URL (`v<id>=value`) as the platform takes them (`<id>: value`). */
export function valueFilters(query: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(query)
      .filter(([key, value]) => /^v\d+$/.test(key) && typeof value === "string" && value)
      .map(([key, value]) => [key.slice(1), String(value)]),
  );
}

/**
 * A contact's property values as the contact form posts them: `v<id>`; a multiple choice also posts
 * `m<id>`, so none chosen is an empty list rather than no value.
 */
export function postedValues(form: FormData): Record<string, string | string[]> {
  const values: Record<string, string | string[]> = {};
  for (const key of new Set([...form.keys()].filter((k) => /^v\d+$/.test(k)))) {
    const all = form.getAll(key).map(String);
    values[key.slice(1)] = form.has(`m${key.slice(1)}`) ? all : (all[0] ?? "");
  }
  for (const key of [...form.keys()].filter((k) => /^m\d+$/.test(k))) values[key.slice(1)] ??= [];
  return values;
}

/** A contact's value of a property as the list shows it (a multiple choice joined). */
export function valueText(contact: CustomerContact, property: CustomerProperty) {
  const value = contact.values[String(property.id)];
  return Array.isArray(value) ? value.join("、") : (value ?? "");
}

/** A file whose every column is known by its header, the phone among them, can be imported without the mapping step. */
export function columnsKnown(columns: ReadonlyArray<Pick<ContactImportUpload["columns"][number], "header" | "target">>) {
  return columns.every((c) => c.target || !c.header) && columns.some((c) => c.target === IMPORT_TARGETS.phone);
}
