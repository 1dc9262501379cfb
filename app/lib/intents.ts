/**
 * A guard for a form's `intent`: one of the table's own keys. Own keys only, so a posted
 * "constructor" or "toString" is no intent (an `in` test once took them for one: a 500).
 */
export const ownKeyOf =
  <T extends object>(table: T) =>
  (value: unknown): value is keyof T & string =>
    typeof value === "string" && Object.hasOwn(table, value);
