import { describe, expect, it } from "vitest";
import { devicesOf, loadChoice, saveChoice, usableChoice, type Device } from "./audio-devices";

const devices: Device[] = [
  { kind: "audioinput", deviceId: "default", label: "默认 - 内置麦克风" },
  { kind: "audioinput", deviceId: "mic-1", label: "内置麦克风" },
  { kind: "audioinput", deviceId: "mic-2", label: "USB 耳麦" },
  { kind: "audiooutput", deviceId: "default", label: "默认 - 内置扬声器" },
  { kind: "audiooutput", deviceId: "out-1", label: "内置扬声器" },
  { kind: "audiooutput", deviceId: "out-2", label: "USB 耳麦" },
];

describe("usableChoice", () => {
  it("keeps the devices that are there", () => {
    const choice = { microphone: { deviceId: "mic-2", label: "USB 耳麦" }, ringer: { deviceId: "out-1", label: "内置扬声器" } };
    expect(usableChoice(choice, devices)).toEqual({ usable: choice, missing: [] });
  });

  it("says which chosen device is gone, by its name, and leaves it to the default", () => {
    const choice = { microphone: { deviceId: "mic-9", label: "会议麦克风" }, speaker: { deviceId: "out-2", label: "USB 耳麦" } };
    expect(usableChoice(choice, devices)).toEqual({
      usable: { speaker: choice.speaker },
      missing: ["所选麦克风“会议麦克风”已不可用（已拔出或未获授权），已改用系统默认设备。"],
    });
  });

  it("does not take an input for an output of the same id", () => {
    expect(usableChoice({ ringer: { deviceId: "mic-1", label: "" } }, devices).missing).toEqual([
      "所选铃声设备“未命名设备”已不可用（已拔出或未获授权），已改用系统默认设备。",
    ]);
  });

  it("with no permission the browser lists no devices: every choice falls back", () => {
    expect(usableChoice({ microphone: { deviceId: "mic-1", label: "内置麦克风" } }, []).usable).toEqual({});
  });
});

describe("devicesOf", () => {
  it("lists a kind's own devices, not the default alias, numbering those without a name", () => {
    expect(devicesOf(devices, "audiooutput").map((d) => d.deviceId)).toEqual(["out-1", "out-2"]);
    expect(devicesOf([{ kind: "audioinput", deviceId: "x", label: "" }], "audioinput")).toEqual([{ deviceId: "x", label: "设备 1" }]);
  });
});

describe("the kept choice", () => {
  const storage = () => {
    const items = new Map<string, string>();
    return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value) };
  };

  it("is kept per agent", () => {
    const store = storage();
    saveChoice(store, "1001", { speaker: { deviceId: "out-2", label: "USB 耳麦" } });
    expect(loadChoice(store, "1001")).toEqual({ speaker: { deviceId: "out-2", label: "USB 耳麦" } });
    expect(loadChoice(store, "1002")).toEqual({});
  });

  it("ignores what it cannot read", () => {
    const store = storage();
    store.setItem("sb-audio-devices:1001", "{not json");
    expect(loadChoice(store, "1001")).toEqual({});
    store.setItem("sb-audio-devices:1001", JSON.stringify({ microphone: { deviceId: 7 }, speaker: null, other: { deviceId: "x" } }));
    expect(loadChoice(store, "1001")).toEqual({});
  });
});
