import { createElement as h } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { dropNulBytes } from "./nul-bytes.server";

function streamed(element: React.ReactElement, through?: NodeJS.ReadWriteStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const out = through ?? dropNulBytes();
    out.on("data", (chunk: Buffer) => chunks.push(chunk));
    out.on("end", () => resolve(Buffer.concat(chunks)));
    const { pipe } = renderToPipeableStream(element, { onAllReady: () => pipe(out as NodeJS.WritableStream), onError: reject });
  });
}

describe("a streamed page with long Chinese text", () => {
  const text = "客户说明天下午再联系".repeat(300);
  const page = h(
    "main",
    null,
    Array.from({ length: 40 }, (_, i) => h("p", { key: i }, `${text.slice(0, (i * 37) % text.length)}é😀`)),
  );

  it("carries NUL bytes as React 18.3.1 writes it (drop the workaround when this fails)", async () => {
    const { PassThrough } = await import("node:stream");
    expect((await streamed(page, new PassThrough())).includes(0)).toBe(true);
  });

  it("is exactly the page, without a NUL, once through dropNulBytes", async () => {
    const html = await streamed(page);
    expect(html.includes(0)).toBe(false);
    expect(html.toString("utf8")).toBe(renderToString(page));
  });
});
