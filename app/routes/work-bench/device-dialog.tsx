import { useEffect, useRef, useState } from "react";
import { DEVICE_ROLES, devicesOf } from "#app/client/audio-devices";
import type { AudioDevices } from "#app/client/softphone-media";

/**
 * 设备: the agent's microphone, speaker and ringer, before and during a call (issue 39). A modal
 * dialog from the phone bar: Escape closes it and focus returns to the button.
 */
export function DeviceDialog({ devices }: { devices: AudioDevices }) {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const { ask } = devices;
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      void ask();
    }
    if (!open && element.open) {
      element.close();
      button.current?.focus();
    }
  }, [open, ask]);

  return (
    <>
      <button
        ref={button}
        type="button"
        className="p-button p-button-outlined p-button-sm"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        设备
      </button>
      <dialog
        ref={dialog}
        className="sb-confirm sb-device-dialog"
        aria-labelledby="device-dialog-title"
        onCancel={(event) => {
          event.preventDefault();
          setOpen(false);
        }}
      >
        <h2 id="device-dialog-title">音频设备</h2>
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
        <div className="sb-inline-forms">
          <button type="button" className="p-button" onClick={() => setOpen(false)}>
            关闭
          </button>
        </div>
      </dialog>
    </>
  );
}
