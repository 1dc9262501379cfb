/**
 * Spec §3 "Pagination input: pageNo, pageSize"; §9 default 20, options 10/20/50/100. Kept free of
 * zod so hydrated routes can import it without shipping the schema library.
 */
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;
