import type { SupervisorNotice } from "#contracts/monitor";

/** Says on a workbench what a supervisor did to the agent (a sign-out, a state, a queue) or whispered, or why the platform ended a call. */
export function SupervisorNoticeBanner({ notice, onDismiss }: { notice: SupervisorNotice | null; onDismiss: () => void }) {
  if (!notice) return null;
  const urgent = notice.kind === "signOut" || notice.kind === "signOutPending" || notice.kind === "mediaLost";
  const text = notice.kind === "whisper" ? `主管${notice.from}的密语：${notice.message}` : notice.message;
  return (
    <div className={`p-message p-message-${urgent ? "warn" : "info"} sb-message sb-supervisor-notice`} role={urgent ? "alert" : "status"}>
      <span>{text}</span>{" "}
      <button type="button" className="p-button p-button-text p-button-sm" onClick={onDismiss}>
        知道了
      </button>
    </div>
  );
}
