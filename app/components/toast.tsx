import type { Toast } from "#app/server/toast.server";

/** The message a successful action left (redirectWithToast), announced politely above the screen. */
export function FlashToast({ toast }: { toast: Toast | null }) {
  if (!toast) return null;
  return (
    <div className={`p-message p-message-${toast.tone} sb-message sb-toast`} role={toast.tone === "error" ? "alert" : "status"}>
      {toast.message}
    </div>
  );
}
