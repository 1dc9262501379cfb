import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDb, testPlatform } from "#upstream/test-db";
import type { PreparedPlatform } from "#upstream/testing";
import { listOutbox, queueSms } from "#upstream/repositories/sms-outbox";
import { createSmsCarrier, DELIVERY_MS } from "./sms-carrier";

describeDb("the SMS carrier simulator", () => {
  let platform: PreparedPlatform;
  beforeAll(async () => {
    platform = await testPlatform();
  });
  afterAll(async () => platform?.close());

  it("moves each message from the outbox to delivered, or to failed with the operator's reason", async () => {
    const tenant = await platform.db.selectFrom("tenants").select("id").where("code", "=", "demo").executeTakeFirstOrThrow();
    const ok = await queueSms(platform.db, {
      tenantId: tenant.id,
      phone: "13800138000",
      content: "您好，您的工单已受理。",
      signature: "云客服",
      kind: "message",
    });
    const gone = await queueSms(platform.db, { tenantId: tenant.id, phone: "13900000000", content: "您好", kind: "message" });
    const code = await queueSms(platform.db, {
      tenantId: null,
      phone: "13700000001",
      content: "验证码 123456，5分钟内有效。",
      kind: "code",
    });
    const carrier = createSmsCarrier(platform.db);
    const start = new Date();
    const statusOf = async (id: number) =>
      (await listOutbox(platform.db, { tenantId: tenant.id, pageNo: 1, pageSize: 100 })).list.find((m) => m.id === id);

    expect((await statusOf(ok))?.status).toBe("queued");
    await carrier.tick(start);
    expect((await statusOf(ok))?.status).toBe("sent");
    await carrier.tick(new Date(start.getTime() + DELIVERY_MS / 2));
    expect((await statusOf(ok))?.status).toBe("sent");
    await carrier.tick(new Date(start.getTime() + DELIVERY_MS * 2));
    const delivered = await statusOf(ok);
    expect(delivered).toMatchObject({ status: "delivered", segments: 1, failureReason: null });
    expect(delivered?.deliveredAt).not.toBeNull();
    expect(await statusOf(gone)).toMatchObject({ status: "failed", failureReason: "空号" });

    // A sign-up's code has no tenant: it is in the tenant-less outbox, not in a tenant's.
    const codes = await listOutbox(platform.db, { tenantId: null, phone: "13700000001", pageNo: 1, pageSize: 10 });
    expect(codes.list.map((m) => m.id)).toEqual([code]);
    expect(codes.list[0].status).toBe("delivered");
  });
});
