import { getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { AuthenticityTokenProvider } from "remix-utils/csrf/react";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { deletionStep, rejectForm } from "#app/server/forms.server";
import { useIntentForm, useKeyedIntentForm } from "./intent-form";
import { DeleteStep, RowForm, deletionOf, rowFormOpen, rowRefusalMessage } from "./row-editing";

const SaveSchema = z.object({
  intent: z.literal("tag.save"),
  id: z.coerce.number().int().positive().optional(),
  name: z.string({ required_error: "请输入名称" }).max(4, "名称不能超过4个字符"),
});
const DeleteSchema = z.object({ intent: z.literal("tag.delete"), id: z.coerce.number().int().positive("标签不存在") });

/** The body an action answers after a refusal (`rejectForm`), as `useActionData` gives it. */
function refused(fields: Record<string, string>, schema: z.ZodTypeAny) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  return (rejectForm(parseWithZod(form, { schema })) as unknown as { data: unknown }).data;
}
const saveRefused = (fields: Record<string, string>) => refused({ intent: "tag.save", ...fields }, SaveSchema);
const deleteRefused = refused({ intent: "tag.delete", id: "0" }, DeleteSchema);

function render(element: React.ReactElement, url = "/tags") {
  const router = createMemoryRouter([{ path: "/tags", element }], { initialEntries: [url] });
  return renderToStaticMarkup(
    <AuthenticityTokenProvider token="csrf-token">
      <RouterProvider router={router} />
    </AuthenticityTokenProvider>,
  );
}

/** The value an input named `name` carries in the markup ("" when it has none). */
function valueOf(html: string, name: string) {
  const input = new RegExp(`<input[^>]* name="${name}"[^>]*>`).exec(html)?.[0];
  if (!input) throw new Error(`no input named ${name}`);
  return /value="([^"]*)"/.exec(input)?.[1] ?? "";
}

function TagForm({ result, editing }: { result: unknown; editing?: { id: number; name: string } }) {
  const [form, fields] = useIntentForm("tag.save", result, editing ? { id: String(editing.id), name: editing.name } : undefined);
  return (
    <RowForm
      form={form}
      id={fields.id}
      titles={{ edit: "编辑标签", create: "新建标签" }}
      titleId="tag-title"
      intent="tag.save"
      buttons={<button type="submit">保存</button>}
      cancelHref="/tags"
    >
      <input {...getInputProps(fields.name, { type: "text" })} aria-label="名称" />
    </RowForm>
  );
}

describe("where a list screen's refusal goes", () => {
  it("opens the row form when asked for, or when what it posted came back", () => {
    expect(rowFormOpen(true, undefined, ["tag.save"])).toBe(true);
    expect(rowFormOpen(false, undefined, ["tag.save"])).toBe(false);
    expect(rowFormOpen(false, saveRefused({ name: "太长的名称" }), ["tag.save"])).toBe(true);
    expect(rowFormOpen(false, deleteRefused, ["tag.save"])).toBe(false);
  });

  it("shows a row action's refusal above the list, never the form's", () => {
    expect(rowRefusalMessage(deleteRefused, ["tag.save"])).toBe("标签不存在");
    expect(rowRefusalMessage(saveRefused({ name: "太长的名称" }), ["tag.save"])).toBeNull();
    expect(rowRefusalMessage(undefined, ["tag.save"])).toBeNull();
  });
});

describe("a row's 删除", () => {
  const step = (input: Parameters<typeof deletionStep>[0]) => (deletionStep(input) as unknown as { data: unknown } | null)?.data;

  it("is first answered with its confirmation step, naming the row; confirmed, it goes ahead", () => {
    const answer = step({ intent: "tag.delete", id: 7, name: "大客户" });
    expect(deletionOf(answer)).toEqual({ fields: { intent: "tag.delete", id: "7", name: "大客户" }, name: "大客户" });
    expect(deletionOf(step({ intent: "tag.delete", id: 7 }))?.name).toBe("7");
    expect(step({ intent: "tag.delete", id: 7, name: "大客户", confirmed: "1" })).toBeUndefined();
    expect(deletionOf(deleteRefused)).toBeUndefined();
  });

  it("shows the step with the fields posted again, 取消 back to the page as it was", () => {
    const answer = step({ intent: "tag.delete", id: 7, name: "大客户" });
    const html = render(<DeleteStep result={answer} title="删除标签" message={(name) => `确定删除标签「${name}」吗？`} />, "/tags?page=2");
    expect(html).toContain('role="alertdialog"');
    expect(html).toContain("确定删除标签「大客户」吗？");
    expect(valueOf(html, "id")).toBe("7");
    expect(valueOf(html, "confirmed")).toBe("1");
    expect(html).toContain('href="/tags?page=2"');
    expect(render(<DeleteStep result={deleteRefused} title="删除标签" message={() => "x"} />)).toBe("");
  });
});

describe("the row form", () => {
  it("creates before it has an id", () => {
    const html = render(<TagForm result={undefined} />);
    expect(html).toContain("新建标签");
    expect(valueOf(html, "id")).toBe("");
  });

  it("edits the row chosen, posting its id", () => {
    const html = render(<TagForm result={undefined} editing={{ id: 12, name: "老客户" }} />);
    expect(html).toContain("编辑标签");
    expect(valueOf(html, "id")).toBe("12");
    expect(valueOf(html, "name")).toBe("老客户");
  });

  it("comes back refused with the row's id, what was typed and why", () => {
    const html = render(<TagForm result={saveRefused({ id: "12", name: "太长的名称" })} editing={{ id: 12, name: "老客户" }} />);
    expect(html).toContain("编辑标签");
    expect(valueOf(html, "id")).toBe("12");
    expect(valueOf(html, "name")).toBe("太长的名称");
    expect(html).toContain('aria-invalid="true"');
  });

  it("stays a new row when a new one is refused", () => {
    const html = render(<TagForm result={saveRefused({ id: "", name: "太长的名称" })} />);
    expect(html).toContain("新建标签");
    expect(valueOf(html, "name")).toBe("太长的名称");
  });
});

const NoteSchema = z.object({
  intent: z.literal("tag.note"),
  id: z.coerce.number().int().positive(),
  note: z.string().trim().min(1, "请填写备注"),
});

/** A form per row, told apart by the row's `id` it posts. */
function NoteForm({ id, result }: { id: number; result: unknown }) {
  const [form, fields] = useKeyedIntentForm<{ note: string }>("tag.note", String(id), result, undefined, "id");
  return (
    <form id={form.id}>
      <input {...getInputProps(fields.note, { type: "text" })} aria-label={`备注 ${id}`} />
      {fields.note.errors ? <small id={fields.note.errorId}>{fields.note.errors[0]}</small> : null}
    </form>
  );
}

describe("a form per row", () => {
  it("gets back what was typed and why on the row it was posted from only", () => {
    const result = refused({ intent: "tag.note", id: "12", note: "  " }, NoteSchema);
    const posted = render(<NoteForm id={12} result={result} />);
    expect(valueOf(posted, "note")).toBe("  ");
    expect(posted).toContain("请填写备注");
    expect(posted).toContain('aria-invalid="true"');
    const other = render(<NoteForm id={7} result={result} />);
    expect(valueOf(other, "note")).toBe("");
    expect(other).not.toContain("请填写备注");
  });
});
