import { DEVICE_ROLES, devicesOf } from "#app/client/audio-devices";
import type { useRingNotification } from "#app/client/ring-notification";
import type { AudioDevices } from "#app/client/softphone-media";
import { PhoneBarDialog } from "./phone-bar-dialog";

const NOTIFICATION_STATES = {
  unsupported: "此浏览器不支持桌面通知。",
  granted: "已开启：本页在后台时来电会弹出桌面通知。",
  denied: "浏览器已拒绝桌面通知，可在地址栏的网站设置中重新允许。",
  default: "未开启。",
} as const;

/**
 * 设备: the agent's microphone, speaker and ringer, before and during a call, and the
 * desktop notification of a ringing call, in a dialog from the phone bar.
 */
export function DeviceDialog({ devices, notification }: { devices: AudioDevices; notification: ReturnType<typeof useRingNotification> }) {
  return (
    <PhoneBarDialog label="设备" title="音频设备" onOpen={devices.ask}>
      <p>选择后立即生效，通话中切换也不会中断通话；设置保存在本浏览器中。</p>
      {DEVICE_ROLES.map(({ role, kind, label }) => {
        const options = devicesOf(devices.available, kind);
        const chosen = devices.usable[role]?.deviceId ?? "";
        return (
          <div className="sb-field" key={role}>
            <label htmlFor={`device-${role}`}>{label}</label>
            <select
              id={`device-${role}`}
              className="p-inputtext p-component p-inputtext-sm"
              value={chosen}
              onChange={(event) =>
                devices.choose(
                  role,
                  options.find((o) => o.deviceId === event.target.value),
                )
              }
            >
              <option value="">系统默认</option>
              {options.map((o) => (
                <option key={o.deviceId} value={o.deviceId}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
        );
      })}
      {[...devices.missing, ...(devices.problem ? [devices.problem] : [])].map((text) => (
        <p key={text} className="sb-phonebar-error">
          {text}
        </p>
      ))}
      <h3>桌面通知</h3>
      <p data-testid="notification-state">{NOTIFICATION_STATES[notification.access]}</p>
      {notification.access === "default" ? (
        <button type="button" className="p-button p-button-outlined p-button-sm" onClick={() => void notification.enable()}>
          开启桌面通知
        </button>
      ) : null}
    </PhoneBarDialog>
  );
}

/**
 * The offer to turn desktop notifications on, once the agent signed in: what it is for, then the
 * browser's own question only if the agent agrees. Shown until answered either way.
 */
export function NotificationOffer({ notification }: { notification: ReturnType<typeof useRingNotification> }) {
  if (!notification.offer) return null;
  return (
    <div className="p-message p-message-info sb-notification-offer" role="region" aria-label="桌面通知">
      <p>工作台在后台时，来电可能被错过。开启桌面通知后，本页不在前台时来电会在桌面弹出提醒，点击提醒即回到工作台。</p>
      <button type="button" className="p-button p-button-sm" onClick={() => void notification.enable()}>
        开启桌面通知
      </button>{" "}
      <button type="button" className="p-button p-button-text p-button-sm" onClick={notification.decline}>
        暂不开启
      </button>
    </div>
  );
}
