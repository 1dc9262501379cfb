import { describe, expect, it } from "vitest";
import { createConclusionOutbox as createOutbox, type ConclusionDraft } from "./conclusion-outbox";
import { backoffMs, type SendResult } from "./outbox";

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

const draft: ConclusionDraft = { ctiCallId: "cti-1", phone: "13800138000", callResult: "1", intent: "CONFIRM", remark: "ok", fields: {} };

function setup(answers: SendResult[], storage = memoryStorage(), keyPrefix = "key") {
  let clock = 1_000;
  let keys = 0;
  const sent: string[] = [];
  const outbox = createOutbox({
    storage,
    newKey: () => `${keyPrefix}-${++keys}`,
    now: () => clock,
    send: async (item) => {
      sent.push(item.key);
      return answers.shift() ?? { kind: "saved" };
    },
  });
  return { outbox, storage, sent, tick: (ms: number) => (clock += ms) };
}

describe("conclusion outbox", () => {
  it("keeps retrying with the same idempotency key until saved, backing off between tries", async () => {
    const { outbox, sent, tick } = setup([
      { kind: "retry", message: "网络已断开" },
      { kind: "retry", message: "网络已断开" },
    ]);
    outbox.submit(draft);
    await outbox.flush();
    expect(outbox.items()[0]).toMatchObject({ state: "pending", attempts: 1, error: "网络已断开" });
    await outbox.flush(); // not due yet
    expect(sent).toHaveLength(1);
    tick(backoffMs(1));
    await outbox.flush();
    expect(outbox.items()[0]).toMatchObject({ state: "pending", attempts: 2 });
    await outbox.flush(true); // the network is back: no waiting
    expect(outbox.items()[0]).toMatchObject({ state: "saved", attempts: 3, error: null });
    expect(sent).toEqual(["key-1", "key-1", "key-1"]);
  });

  it("survives a reload: what was queued (even mid-send) is sent by the next page", async () => {
    const storage = memoryStorage();
    const first = setup([{ kind: "retry", message: "x" }], storage);
    first.outbox.submit(draft);
    // Simulate a reload caught while sending.
    storage.setItem("sb-conclusion-outbox", JSON.stringify([{ ...first.outbox.items()[0], state: "sending" }]));
    const second = setup([], storage);
    expect(second.outbox.items()[0]).toMatchObject({ key: "key-1", state: "pending" });
    await second.outbox.flush();
    expect(second.sent).toEqual(["key-1"]);
    expect(second.outbox.items()[0].state).toBe("saved");
  });

  it("stops on a refusal and shows why; a corrected submission replaces it", async () => {
    const { outbox } = setup([{ kind: "refused", message: "请选择通话结果" }]);
    outbox.submit({ ...draft, callResult: "" });
    await outbox.flush();
    expect(outbox.items()).toMatchObject([{ state: "failed", error: "请选择通话结果" }]);
    outbox.submit(draft);
    await outbox.flush();
    expect(outbox.items()).toMatchObject([{ key: "key-2", state: "saved" }]);
  });

  it("keeps a form per call to conclude, each with its own draft, until each is submitted", () => {
    const { outbox } = setup([]);
    const first = { ctiCallId: "cti-1", phone: "138****8000", startedAt: "2026-11-28T01:00:00Z", origin: "inbound" };
    const second = { ...first, ctiCallId: "cti-2", phone: "139****0000" };
    outbox.open(first);
    outbox.open(second);
    outbox.open(first); // seen again: keeps its place
    expect(outbox.openCalls().map((c) => c.ctiCallId)).toEqual(["cti-1", "cti-2"]);
    outbox.saveDraft({ ...draft, remark: "typing" });
    outbox.saveDraft({ ...draft, ctiCallId: "cti-2", remark: "second" });
    expect(outbox.loadDraft("cti-1")?.remark).toBe("typing");
    expect(outbox.loadDraft("cti-2")?.remark).toBe("second");
    outbox.submit(draft);
    expect(outbox.loadDraft("cti-1")).toBeNull();
    expect(outbox.openCalls().map((c) => c.ctiCallId)).toEqual(["cti-2"]);
    expect(outbox.loadDraft("cti-2")?.remark).toBe("second");
    // A submitted call seen again (a reload during the call) does not open a second form.
    outbox.open(first);
    expect(outbox.openCalls().map((c) => c.ctiCallId)).toEqual(["cti-2"]);
    // A call handed on to a colleague is theirs to conclude: its form and draft close.
    outbox.forget("cti-2");
    expect(outbox.openCalls()).toEqual([]);
    expect(outbox.loadDraft("cti-2")).toBeNull();
  });

  it("takes a refused conclusion back into its form, as typed", async () => {
    const { outbox } = setup([{ kind: "refused", message: "备注不能超过500个字" }]);
    const call = { ctiCallId: "cti-1", phone: "138****8000", startedAt: "2026-11-28T01:00:00Z", origin: "inbound" };
    outbox.open(call);
    outbox.submit(draft);
    await outbox.flush();
    const [refused] = outbox.items();
    expect(refused.state).toBe("failed");
    outbox.reopen(refused, call);
    expect(outbox.items()).toEqual([]);
    expect(outbox.openCalls()).toEqual([call]);
    expect(outbox.loadDraft("cti-1")).toEqual(draft);
  });

  it("a refused conclusion reopened whole sends the agent's corrections, not what was refused", async () => {
    const { outbox } = setup([{ kind: "refused", message: "回访日期不能早于今天" }]);
    const call = { ctiCallId: "cti-1", phone: "138****8000", startedAt: "2026-11-28T01:00:00Z", origin: "inbound" };
    outbox.open(call);
    outbox.submit({ ...draft, ...call, fields: { callbackDate: "2026-11-27" } });
    await outbox.flush();
    const [refused] = outbox.items();
    // The workbench's form reopens with the refused item's whole payload as the call.
    outbox.reopen(refused, { ...refused.payload, startedAt: call.startedAt, origin: call.origin });
    const [open] = outbox.openCalls();
    expect(open).toEqual(call);
    // The form submits its corrected draft over the open call (conclusion.tsx: { ...draft, ...call }).
    const corrected = { ...outbox.loadDraft("cti-1")!, fields: { callbackDate: "2026-11-28" } };
    expect(outbox.submit({ ...corrected, ...open }).payload.fields).toEqual({ callbackDate: "2026-11-28" });
  });

  it("two tabs of the agent share one outbox: each shows the other's forms, neither writes over the other's results", async () => {
    const storage = memoryStorage();
    const first = setup([{ kind: "retry", message: "网络已断开" }], storage);
    const second = setup([], storage, "tab2");
    const seen: string[][] = [];
    first.outbox.subscribeCalls((calls) => seen.push(calls.map((c) => c.ctiCallId)));
    const call = { ctiCallId: "cti-1", phone: "138****8000", startedAt: "2026-11-28T01:00:00Z", origin: "inbound" };

    // The second tab sees the call first; the first tab, seeing it after, still shows its form.
    second.outbox.open(call);
    first.outbox.open(call);
    expect(seen.at(-1)).toEqual(["cti-1"]);

    // The first tab saves (the network is down); the second, older copy in hand, queues another call's result.
    first.outbox.submit(draft);
    await first.outbox.flush();
    second.outbox.submit({ ...draft, ctiCallId: "cti-2" });
    const stored = () =>
      (JSON.parse(storage.getItem("sb-conclusion-outbox")!) as Array<{ payload: ConclusionDraft }>).map((i) => i.payload.ctiCallId);
    expect(stored()).toEqual(["cti-1", "cti-2"]);

    // Told of the change (the storage event), the first tab lists both and no longer shows the form.
    first.outbox.refresh();
    expect(first.outbox.items().map((i) => i.payload.ctiCallId)).toEqual(["cti-1", "cti-2"]);
    expect(seen.at(-1)).toEqual([]);

    // Either tab sends what waits, so a result queued in one is saved even if that tab closes.
    await second.outbox.flush(true);
    first.outbox.refresh();
    expect(first.outbox.items().map((i) => i.state)).toEqual(["saved", "saved"]);
    expect(first.sent).toEqual(["key-1"]);
    expect(second.sent).toEqual(["key-1", "tab2-1"]);
  });

  it("backs off exponentially up to 30 s", () => {
    expect([1, 2, 3, 6, 10].map(backoffMs)).toEqual([1_000, 2_000, 4_000, 30_000, 30_000]);
  });
});
