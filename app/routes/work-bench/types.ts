import type { loadWorkbench } from "./workbench.server";

/** What the workbench's loader gives the page. */
export type WorkbenchData = Awaited<ReturnType<typeof loadWorkbench>>;

/** The voice workbench island's endpoint: its actions (POST) and its reads (GET). */
export const PHONE_ENDPOINT = "/workBench/phone";
