/**
 * The inspection's limits (decision 018), kept free of zod so the hydrated scoring view can import
 * them without shipping the schema library. contracts/inspection.ts re-exports them.
 */

/** A lock older than this returns the call to the pool (status -1) on the next queue operation. */
export const QC_LOCK_MINUTES = 30;
/** Bulk operations (order, reallot, recovery) take at most this many calls. */
export const QC_BULK_LIMIT = 500;
/** One apply claims at most this many calls. */
export const QC_APPLY_LIMIT = 50;
export const QC_REMARK_MAX = 500;
export const QC_REASON_MAX = 200;

/** Scoring forms (decision 028): a name, up to QC_FORM_ITEMS_MAX items, each weighing 1–QC_ITEM_WEIGHT_MAX points. */
export const QC_FORM_NAME_MAX = 40;
export const QC_FORM_DESCRIPTION_MAX = 200;
export const QC_FORM_ITEMS_MAX = 30;
export const QC_ITEM_TITLE_MAX = 60;
export const QC_ITEM_WEIGHT_MAX = 100;
