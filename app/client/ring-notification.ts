import { useCallback, useEffect, useState } from "react";

/**
 * A desktop notification when a call rings while the workbench tab is in the background (issue
 * 39). The browser's permission is asked for once, after the agent read why and agreed, never on
 * page load: the offer to ask is remembered per agent in this browser once answered either way.
 */
export type NotificationAccess = "unsupported" | NotificationPermission;

const askedKey = (agentId: string) => `sb-notify-asked:${agentId}`;

export function useRingNotification(agentId: string) {
  const [access, setAccess] = useState<NotificationAccess>("unsupported");
  const [asked, setAsked] = useState(true);
  useEffect(() => {
    setAccess("Notification" in window ? Notification.permission : "unsupported");
    setAsked(window.localStorage.getItem(askedKey(agentId)) === "1");
  }, [agentId]);

  const remember = useCallback(() => {
    window.localStorage.setItem(askedKey(agentId), "1");
    setAsked(true);
  }, [agentId]);
  /** Asks the browser (in the agent's click). */
  const enable = useCallback(async () => {
    remember();
    if ("Notification" in window) setAccess(await Notification.requestPermission());
  }, [remember]);

  return { access, enable, decline: remember, offer: access === "default" && !asked };
}

/**
 * While `ringing` names a call (its title), a tab in the background shows a notification; a
 * click on it brings the tab forward. It closes when the call stops ringing.
 */
export function useNotifyWhileHidden(ringing: { id: string; title: string } | null, enabled: boolean) {
  const id = ringing?.id;
  const title = ringing?.title;
  useEffect(() => {
    if (!id || !title || !enabled || !("Notification" in window)) return;
    let shown: Notification | null = null;
    const show = () => {
      if (shown || document.visibilityState !== "hidden" || Notification.permission !== "granted") return;
      // Silent: the ring itself is the sound (and the agent may have muted it).
      shown = new Notification(title, { body: "点击回到工作台接听", tag: `sb-call-${id}`, requireInteraction: true, silent: true });
      shown.onclick = () => {
        window.focus();
        shown?.close();
      };
    };
    show();
    document.addEventListener("visibilitychange", show);
    return () => {
      document.removeEventListener("visibilitychange", show);
      shown?.close();
    };
  }, [id, title, enabled]);
}
