import { CsrfInput } from "./csrf-input";

/**
 * A list row's 编辑 link and 删除 button: the delete posts `intent`, `id` and `name`, and the
 * route answers its confirmation step (design §9) before acting.
 */
export function EditDeleteActions({ editHref, intent, id, name }: { editHref: string; intent: string; id: number; name: string }) {
  return (
    <div className="sb-row-actions">
      <a href={editHref} aria-label={`编辑「${name}」`}>
        编辑
      </a>
      <form method="post">
        <CsrfInput />
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="id" value={id} />
        <input type="hidden" name="name" value={name} />
        <button type="submit" className="p-button p-button-text p-button-danger p-button-sm" aria-label={`删除「${name}」`}>
          删除
        </button>
      </form>
    </div>
  );
}
