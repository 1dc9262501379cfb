/**
 * Result parsing that both backends share, so a row reads the same on PGlite and PostgreSQL.
 *
 * node-postgres returns int8 (e.g. `count(*)`) as a string, PGlite as a number when it fits;
 * `date` becomes a local-midnight Date in node-postgres and a UTC one in PGlite. We pick one
 * rule for each and apply it to both: int8 is a number while exact, a bigint beyond that;
 * `date` stays the 'YYYY-MM-DD' string PostgreSQL sends, since a calendar day has no time zone.
 */
export const PG_OID = { int8: 20, date: 1082 } as const;

export function parseInt8(value: string): number | bigint {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : BigInt(value);
}

export function parseDate(value: string): string {
  return value;
}

export const sharedParsers: Record<number, (value: string) => unknown> = {
  [PG_OID.int8]: parseInt8,
  [PG_OID.date]: parseDate,
};
