import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csrf } from "#app/server/security.server";
import { consoleAgainstPlatform } from "./support";

/**
 * An uploaded file goes from the browser through the console to the platform as it arrives: the
 * console holds no upload whole (it once held one whole). Shown by the platform having received the
 * start of a file whose end the browser has not sent yet.
 */

let setup: Awaited<ReturnType<typeof consoleAgainstPlatform>>;
beforeAll(async () => {
  setup = await consoleAgainstPlatform(["admin"]);
}, 60_000);
afterAll(async () => setup?.platform.close());

const BOUNDARY = "----browser-boundary-7MA4YWxkTrZu0gW";
const part = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const filePart = (name: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\n`;

/** A post to the contacts screen whose body the test sends piece by piece. */
async function postInPieces() {
  const [token, csrfCookie] = await csrf.commitToken();
  let push!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (controller) => void (push = controller) });
  const request = new Request("http://console.test/contacts", {
    method: "POST",
    headers: {
      Cookie: `${setup.cookies.admin}; ${csrfCookie!.split(";")[0]}`,
      "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
    },
    body,
    duplex: "half",
  } as RequestInit);
  const { action } = await import("#app/routes/contacts/route");
  const answered = Promise.resolve(action({ request, params: {}, context: {} })).then(
    (value) => value,
    (thrown: unknown) => thrown,
  );
  return { token, answered, send: (text: string) => push.enqueue(Buffer.from(text)), end: () => push.close() };
}

/** The platform's spooled upload that starts with `marker`, and how much of it has arrived. */
async function spooled(marker: string): Promise<number> {
  for (const entry of await readdir(tmpdir())) {
    if (!entry.startsWith("sb-upload-")) continue;
    const content = await readFile(join(tmpdir(), entry, "file")).catch(() => null);
    if (content?.subarray(0, 200).toString().includes(marker)) return content.length;
  }
  return 0;
}

describe("uploads pass through the console as a stream", () => {
  it("the platform is writing a file's start while the browser is still sending the rest", async () => {
    const marker = `流式${randomUUID()}`;
    const rows = (from: number) => Array.from({ length: 8_000 }, (_, i) => `139${String(from + i).padStart(8, "0")},${marker}`).join("\n");
    const post = await postInPieces();
    post.send(part("csrf", post.token) + part("intent", "import") + part("mapColumns", "on") + filePart("分段名单.csv"));
    post.send(`手机号,姓名\n${rows(0)}\n`);
    // The browser pauses here, half its file sent: the platform already has that half.
    await expect.poll(() => spooled(marker), { timeout: 10_000 }).toBeGreaterThan(100_000);
    post.send(`${rows(8_000)}\r\n--${BOUNDARY}--\r\n`);
    post.end();
    const answer = (await post.answered) as { data: { mapping?: { upload: { fileName: string; columns: { header: string }[] } } } };
    expect(answer.data.mapping?.upload.fileName).toBe("分段名单.csv");
    expect(answer.data.mapping?.upload.columns.map((c) => c.header)).toEqual(["手机号", "姓名"]);
    // Read, kept by the platform for the mapping step, and the spooled file gone.
    await expect.poll(() => spooled(marker)).toBe(0);
  });

  it("a file the platform refuses at its first byte is answered in Chinese while the browser is still sending it", async () => {
    const post = await postInPieces();
    post.send(part("csrf", post.token) + part("intent", "import") + filePart("名单.txt"));
    post.send("13900000000,张三\n".repeat(20_000));
    post.send(`\r\n--${BOUNDARY}--\r\n`);
    post.end();
    const refused = (await post.answered) as { data: { error?: Record<string, string[]> }; init: { status: number } };
    expect(refused.init.status).toBe(400);
    expect(refused.data.error?.[""]).toEqual(["上传联系人文件失败：只支持 CSV 或 XLSX 文件"]);
    // The rest of the refused body was read and dropped: the next uploads, on the same kept-alive
    // connections, are answered (they once waited forever behind the refused body's end).
    for (let i = 0; i < 3; i++) {
      const next = await postInPieces();
      next.send(part("csrf", next.token) + part("intent", "import") + part("mapColumns", "on") + filePart("下一个.csv"));
      next.send(`手机号,姓名\n1390000000${i},下一个\r\n--${BOUNDARY}--\r\n`);
      next.end();
      const answer = (await next.answered) as { data: { mapping?: { upload: { fileName: string } } } };
      expect(answer.data.mapping?.upload.fileName).toBe("下一个.csv");
    }
  });

  it("a file sent before the form's token is refused before it reaches the platform", async () => {
    const marker = `无令牌${randomUUID()}`;
    const post = await postInPieces();
    post.send(part("intent", "import") + filePart("名单.csv") + `手机号,姓名\n13900000000,${marker}\n`.repeat(2_000));
    post.send(`\r\n` + part("csrf", post.token) + `--${BOUNDARY}--\r\n`);
    post.end();
    const refused = (await post.answered) as { data: { message: string }; init: { status: number } };
    expect(refused.init.status).toBe(403);
    expect(refused.data.message).toBe("页面已过期，请刷新页面后重试");
    expect(await spooled(marker)).toBe(0);
  });

  it("times an upload by the browser's silence, not its length: a slow sender passes, a stalled one is a Chinese 504", async () => {
    const { getSignedIn } = await import("#app/server/session.server");
    const { call } = await import("#app/services/upstream.server");
    const { ContactImportUploadResponseSchema } = await import("#contracts/customers");
    const auth = (await getSignedIn(new Request("http://console.test/", { headers: { Cookie: setup.cookies.admin } })))!;
    const caller = { token: auth.token, customerId: auth.user.customerId, userId: auth.user.id };
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    async function* slowly(pauses: number[]) {
      yield Buffer.from("手机号,姓名\n");
      for (const [i, pause] of pauses.entries()) {
        await sleep(pause);
        yield Buffer.from(`1390000000${i},慢速${i}\n`);
      }
    }
    const upload = (pauses: number[]) =>
      call({
        method: "POST",
        path: "/crm_v2/contacts/v1/import/upload",
        upload: { fields: {}, file: { name: "慢速.csv", type: "text/csv", data: slowly(pauses) } },
        schema: ContactImportUploadResponseSchema,
        what: "上传联系人文件",
        caller,
        timeoutMs: 2_500,
      });
    // 5 s in all, never 2.5 s without a chunk (margins of 1.5 s for a busy machine).
    expect((await upload([1_000, 1_000, 1_000, 1_000, 1_000])).data?.columns.map((c) => c.header)).toEqual(["手机号", "姓名"]);
    const stalled = await upload([100, 4_000]).then(
      () => null,
      (thrown: { data: { message: string }; init: { status: number } }) => thrown,
    );
    expect(stalled?.init.status).toBe(504);
    expect(stalled?.data.message).toBe("上传联系人文件失败：平台响应超时，请稍后重试");
  });
});
