import { getFormProps, getInputProps } from "@conform-to/react";
import type { KnowledgeGroup } from "#contracts/knowledge";
import { CsrfInput } from "#app/components/csrf-input";
import { Notice } from "#app/components/filters";
import { Field, inputClass } from "#app/components/form-field";
import { useIntentForm } from "#app/components/intent-form";
import { PostButton } from "#app/components/row-actions";
import { screenHref } from "./href";
import type { KnowledgeScreenQuery } from "./query.server";

/** The groups beside the list: each a link with its counts, a new one, and the chosen one's name and deletion. */
export function GroupPanel({
  groups,
  group,
  query,
  result,
  errorOf,
}: {
  groups: KnowledgeGroup[];
  group: KnowledgeGroup | null;
  query: KnowledgeScreenQuery;
  /** The action's answer: a refused new name comes back to its form with what was typed. */
  result: unknown;
  errorOf: (intent: string) => string | null;
}) {
  const total = groups.reduce((sum, g) => sum + g.nodeCount, 0);
  const [createForm, create] = useIntentForm("group.create", result);
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

      <form method="post" {...getFormProps(createForm)} className="sb-form">
        <CsrfInput />
        <input type="hidden" name="intent" value="group.create" />
        <Field field={create.name} label="新分组名称">
          <input {...getInputProps(create.name, { type: "text" })} maxLength={30} required className={inputClass(create.name)} />
        </Field>
        <button type="submit" className="p-button p-button-outlined">
          新建分组
        </button>
      </form>

      {group ? (
        <>
          <RenameGroup key={group.id} group={group} result={result} />
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

/** The chosen group's name, its own form per group (a link to another group starts from that one's name). */
function RenameGroup({ group, result }: { group: KnowledgeGroup; result: unknown }) {
  const [form, fields] = useIntentForm("group.rename", result, { name: group.name });
  return (
    <form method="post" {...getFormProps(form)} className="sb-form">
      <CsrfInput />
      <input type="hidden" name="intent" value="group.rename" />
      <input type="hidden" name="groupId" value={group.id} />
      <Field field={fields.name} label="分组名称">
        <input {...getInputProps(fields.name, { type: "text" })} maxLength={30} required className={inputClass(fields.name)} />
      </Field>
      <button type="submit" className="p-button p-button-outlined">
        重命名
      </button>
    </form>
  );
}
