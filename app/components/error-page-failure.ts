/** Spec §8: shown when rendering the error page itself failed. Plain HTML, nothing that can fail. */
export const ERROR_PAGE_FAILURE_TEXT = "An error occured while showing the error page";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function errorPageFailureDetails(error: unknown): string {
  // Details name the failure, never a stack trace.
  if (error instanceof Error) return error.message || error.name;
  return typeof error === "string" ? error : "Error";
}

export function errorPageFailureHtml(error: unknown): string {
  return `<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Error</title></head><body style="font-family:system-ui,sans-serif;padding:3rem;color:#1f2937"><h1>${ERROR_PAGE_FAILURE_TEXT}</h1><p>${escapeHtml(errorPageFailureDetails(error))}</p><p><a href="/">Go back to home</a></p></body></html>`;
}
