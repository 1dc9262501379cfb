/**
 * The agent's audio devices: the microphone, the speaker the call is heard on and the
 * ringer the ring plays on, chosen in the workbench and kept per agent in this browser. Pure but
 * for the storage helpers; the workbench applies the choice (softphone-media.ts).
 */

export type AudioRole = "microphone" | "speaker" | "ringer";

/** A chosen device: its id in this browser and its name (to say which one went missing). */
export type ChosenDevice = { deviceId: string; label: string };
/** The agent's choice; a role left out is the system's default device. */
export type DeviceChoice = Partial<Record<AudioRole, ChosenDevice>>;

export const DEVICE_ROLES: ReadonlyArray<{ role: AudioRole; kind: MediaDeviceKind; label: string }> = [
  { role: "microphone", kind: "audioinput", label: "麦克风" },
  { role: "speaker", kind: "audiooutput", label: "通话扬声器" },
  { role: "ringer", kind: "audiooutput", label: "铃声设备" },
];

/** What enumerateDevices() answers, as far as the choice needs it. */
export type Device = Pick<MediaDeviceInfo, "deviceId" | "kind" | "label">;

const ROLE_NAMES: Record<AudioRole, string> = { microphone: "麦克风", speaker: "扬声器", ringer: "铃声设备" };

/**
 * The part of the choice the browser can use now: a chosen device that is not among `devices`
 * (unplugged, or the permission withdrawn) falls back to the default and is named in `missing`.
 */
export function usableChoice(choice: DeviceChoice, devices: Device[]): { usable: DeviceChoice; missing: string[] } {
  const usable: DeviceChoice = {};
  const missing: string[] = [];
  for (const { role, kind } of DEVICE_ROLES) {
    const chosen = choice[role];
    if (!chosen) continue;
    if (devices.some((d) => d.kind === kind && d.deviceId === chosen.deviceId)) usable[role] = chosen;
    else missing.push(`所选${ROLE_NAMES[role]}“${chosen.label || "未命名设备"}”已不可用（已拔出或未获授权），已改用系统默认设备。`);
  }
  return { usable, missing };
}

/** The devices of a kind, as the chooser lists them; nameless ones (no permission yet) are numbered. */
export function devicesOf(devices: Device[], kind: MediaDeviceKind): ChosenDevice[] {
  return devices
    .filter((d) => d.kind === kind && d.deviceId !== "" && d.deviceId !== "default" && d.deviceId !== "communications")
    .map((d, i) => ({ deviceId: d.deviceId, label: d.label || `设备 ${i + 1}` }));
}

const storageKey = (agentId: string) => `sb-audio-devices:${agentId}`;

/** The choice kept in this browser for this agent; nothing kept, or unreadable, is all defaults. */
export function loadChoice(storage: Pick<Storage, "getItem">, agentId: string): DeviceChoice {
  try {
    const kept: unknown = JSON.parse(storage.getItem(storageKey(agentId)) ?? "{}");
    const choice: DeviceChoice = {};
    for (const { role } of DEVICE_ROLES) {
      const entry = (kept as Record<string, unknown> | null)?.[role] as Partial<ChosenDevice> | undefined;
      if (typeof entry?.deviceId === "string" && entry.deviceId)
        choice[role] = { deviceId: entry.deviceId, label: String(entry.label ?? "") };
    }
    return choice;
  } catch {
    return {};
  }
}

export function saveChoice(storage: Pick<Storage, "setItem">, agentId: string, choice: DeviceChoice): void {
  storage.setItem(storageKey(agentId), JSON.stringify(choice));
}
