import type { loadWorkbench } from "./workbench.server";

/** What the workbench's loader gives the page. */
export type WorkbenchData = Awaited<ReturnType<typeof loadWorkbench>>;
