import { afterAll, beforeAll, expect, it } from "vitest";
import { csrf } from "#app/server/security.server";
import { handlers } from "./route-table";
import { consoleAgainstPlatform } from "./support";

let setup: Awaited<ReturnType<typeof consoleAgainstPlatform>>;
beforeAll(async () => {
  setup = await consoleAgainstPlatform(["agent"]);
}, 60_000);
afterAll(async () => setup?.platform.close());

/** Posts a form to the voice workbench's phone action as the agent; the status and message it answers. */
async function post(fields: Record<string, string>) {
  const [token, csrfCookie] = await csrf.commitToken();
  const request = new Request("http://console.test/workBench/phone", {
    method: "POST",
    // As the workbench island posts: it reads the answer as JSON.
    headers: {
      Cookie: `${setup.cookies.agent}; ${csrfCookie!.split(";")[0]}`,
      "Content-Type": "application/x-www-form-urlencoded",
      Accept: "application/json",
    },
    body: new URLSearchParams({ csrf: token, ...fields }),
  });
  const action = handlers.find((h) => h.path === "/workBench/phone" && h.kind === "action")!.handler;
  try {
    const answer = (await action({ request, params: {}, context: {} })) as Response;
    return { status: answer.status, body: await answer.text() };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, body: await thrown.text() };
    throw thrown;
  }
}

it("refuses business fields or work-order values that are not JSON, instead of saving them as nothing", async () => {
  const { db } = setup.platform;
  // A call the agent took: everything else about its conclusion is valid.
  const call = await db
    .selectFrom("call_records")
    .select("cti_call_id")
    .where("agent_user_id", "=", setup.users.agent.id)
    .where("cti_call_id", "is not", null)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  const conclusions = () => db.selectFrom("business_records").select("id").where("cti_call_id", "=", call.cti_call_id!).execute();
  const before = (await conclusions()).length;
  const posts: Array<Record<string, string>> = [
    { intent: "conclusion", ctiCallId: call.cti_call_id!, callResult: "1", idempotencyKey: "fields-not-json-1", fields: "{不是 JSON" },
    { intent: "workOrder", ctiCallId: call.cti_call_id!, title: "退货", values: "not json" },
  ];
  for (const fields of posts) {
    const { status, body } = await post(fields);
    expect(status, body).toBe(400);
    expect(body).toContain("提交的字段格式不正确");
  }
  expect(await conclusions()).toHaveLength(before);
});
