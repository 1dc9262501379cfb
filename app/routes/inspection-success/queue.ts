import { cursorOfRow, withParams } from "#app/lib/list-url";

export const SCREEN = "/inspectionSuccess";

/** The export link of the list as filtered now (every page of it, so no page, size or cursor). */
export const exportHref = (search: string, format: "csv" | "xlsx") =>
  withParams(`${SCREEN}/export`, search, { page: undefined, size: undefined, format });

/** A posted field's values (one value or several) as the form sent them back. */
export const typedList = (value: unknown) =>
  (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]).map(String);

/** The keyset cursors of a page of calls (the platform's `<callTimeMs>_<id>` of its first and last row). */
export const pageCursors = (rows: ReadonlyArray<{ callTime: number; callId: number }>) =>
  rows.length > 0 ? { first: cursorOfRow(rows[0]), last: cursorOfRow(rows[rows.length - 1]) } : undefined;
