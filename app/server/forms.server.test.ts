import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseWithZod } from "@conform-to/zod";
import { parseIntent, rejectForm } from "./forms.server";

const SCHEMAS = { rename: z.object({ intent: z.literal("rename"), name: z.string({ required_error: "请输入名称" }) }) };
const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
};

/** What a thrown `data(...)` carries: its status and its body. */
async function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    const thrown = error as { init: { status: number }; data: { message: string; what: string } };
    return { status: thrown.init.status, message: thrown.data.message, what: thrown.data.what };
  }
  throw new Error("parseIntent did not refuse");
}

describe("parseIntent", () => {
  it("parses the form with its intent's schema", () => {
    const { intent, submission } = parseIntent(form({ intent: "rename", name: "销售组" }), SCHEMAS, "坐席组");
    expect(intent).toBe("rename");
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value.name).toBe("销售组");
  });

  it("answers bad input of a known intent as the form's errors", () => {
    const { submission } = parseIntent(form({ intent: "rename" }), SCHEMAS, "坐席组");
    expect(submission.status).toBe("error");
    expect(submission.status === "error" && submission.error).toEqual({ name: ["请输入名称"] });
  });

  it.each(["delete", "constructor", "toString", ""])("refuses the intent %j with a Chinese 400 naming the screen", async (intent) => {
    expect(await refusal(() => parseIntent(form({ intent }), SCHEMAS, "坐席组"))).toEqual({
      status: 400,
      message: "请求参数错误",
      what: "坐席组",
    });
  });

  it("refuses a form without an intent", async () => {
    expect((await refusal(() => parseIntent(form({ name: "销售组" }), SCHEMAS, "坐席组"))).status).toBe(400);
  });
});

describe("rejectForm", () => {
  const SignIn = z.object({ username: z.string(), password: z.string({ required_error: "请输入密码" }) });
  const reply = (answer: ReturnType<typeof rejectForm>) =>
    answer as unknown as { init: { status: number }; data: { initialValue?: Record<string, unknown>; error?: Record<string, string[]> } };

  it("answers 400 with every value typed and its errors", () => {
    const answer = reply(rejectForm(parseWithZod(form({ username: "王芳" }), { schema: SignIn })));
    expect(answer.init.status).toBe(400);
    expect(answer.data.initialValue).toEqual({ username: "王芳" });
    expect(answer.data.error).toEqual({ password: ["请输入密码"] });
  });

  it("never sends a hidden field back, with the status and message given", () => {
    const submission = parseWithZod(form({ username: "王芳", password: "错误的密码" }), { schema: SignIn });
    const answer = reply(rejectForm(submission, { formErrors: ["用户名或密码错误"], hideFields: ["password"] }, 401));
    expect(answer.init.status).toBe(401);
    expect(answer.data.initialValue).toEqual({ username: "王芳" });
    expect(answer.data.error).toEqual({ "": ["用户名或密码错误"] });
  });
});
