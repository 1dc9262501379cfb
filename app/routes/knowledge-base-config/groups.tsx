import type { KnowledgeGroup } from "#contracts/knowledge";
import { CsrfInput } from "#app/components/csrf-input";
import { Notice } from "#app/components/filters";
import { PostButton } from "#app/components/row-actions";
import { screenHref } from "./href";
import type { KnowledgeScreenQuery } from "./query.server";

/** The groups beside the list: each a link with its counts, a new one, and the chosen one's name and deletion. */
export function GroupPanel({
  groups,
  group,
  query,
  errorOf,
  typed,
}: {
  groups: KnowledgeGroup[];
  group: KnowledgeGroup | null;
  query: KnowledgeScreenQuery;
  errorOf: (intent: string) => string | null;
  typed: (intent: string, name: string) => string | undefined;
}) {
  const total = groups.reduce((sum, g) => sum + g.nodeCount, 0);
  const createError = errorOf("group.create");
  const renameError = errorOf("group.rename");
  return (
    <nav className="sb-kb-groups" aria-labelledby="kb-groups-title">
      <h2 id="kb-groups-title" className="sb-section-title">
        知识分组
      </h2>
      <ul className="sb-kb-group-list">
        <li>
          <a href={screenHref({ keyword: query.keyword, size: query.size })} aria-current={group ? undefined : "page"}>
            全部（{total}）
          </a>
        </li>
        {groups.map((g) => (
          <li key={g.id}>
            <a
              href={screenHref({ keyword: query.keyword, size: query.size }, { group: g.id })}
              aria-current={group?.id === g.id ? "page" : undefined}
            >
              {g.name}（{g.enabledCount}/{g.nodeCount}）
            </a>
          </li>
        ))}
      </ul>
      <p className="sb-hint">括号内为启用数/总数。</p>

      <form method="post" className="sb-form">
        <CsrfInput />
        <input type="hidden" name="intent" value="group.create" />
        <div className="sb-field">
          <label htmlFor="kb-group-new">新分组名称</label>
          <input
            id="kb-group-new"
            name="name"
            maxLength={30}
            required
            defaultValue={typed("group.create", "name")}
            className={`p-inputtext${createError ? " p-invalid" : ""}`}
            aria-invalid={createError ? true : undefined}
            aria-describedby={createError ? "kb-group-new-error" : undefined}
          />
          {createError ? (
            <small id="kb-group-new-error" className="p-error">
              {createError}
            </small>
          ) : null}
        </div>
        <button type="submit" className="p-button p-button-outlined">
          新建分组
        </button>
      </form>

      {group ? (
        <>
          <form method="post" className="sb-form">
            <CsrfInput />
            <input type="hidden" name="intent" value="group.rename" />
            <input type="hidden" name="groupId" value={group.id} />
            <div className="sb-field">
              <label htmlFor="kb-group-name">分组名称</label>
              <input
                id="kb-group-name"
                name="name"
                maxLength={30}
                required
                defaultValue={typed("group.rename", "name") ?? group.name}
                className={`p-inputtext${renameError ? " p-invalid" : ""}`}
                aria-invalid={renameError ? true : undefined}
                aria-describedby={renameError ? "kb-group-name-error" : undefined}
              />
              {renameError ? (
                <small id="kb-group-name-error" className="p-error">
                  {renameError}
                </small>
              ) : null}
            </div>
            <button type="submit" className="p-button p-button-outlined">
              重命名
            </button>
          </form>
          <PostButton
            fields={{ intent: "group.delete", groupId: group.id }}
            label="删除分组"
            className="p-button p-button-danger p-button-text"
          />
          {errorOf("group.delete") ? <Notice tone="error">{errorOf("group.delete")}</Notice> : null}
        </>
      ) : null}
    </nav>
  );
}
