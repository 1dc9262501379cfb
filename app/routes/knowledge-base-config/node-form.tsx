import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { useLocation } from "@remix-run/react";
import { KNOWLEDGE_STATES } from "#contracts/codes";
import { KNOWLEDGE_ANSWER_MAX, KNOWLEDGE_QUESTION_MAX, type KnowledgeGroup, type KnowledgeNode } from "#contracts/knowledge";
import { CsrfInput } from "#app/components/csrf-input";
import { Notice } from "#app/components/filters";
import { Field, FormErrors, inputClass } from "#app/components/form-field";
import { screenHref } from "./href";
import type { KnowledgeScreenQuery } from "./query.server";
import { NodeFormSchema } from "./schema";
import { CodeOptions, namedChoices } from "#app/components/code-select";

/** A node created (prefilled from a search that found nothing) or edited. */
export function NodeForm({
  groups,
  query,
  editing,
  refusal,
}: {
  groups: KnowledgeGroup[];
  query: KnowledgeScreenQuery;
  editing: KnowledgeNode | null;
  refusal: SubmissionResult<string[]> | undefined;
}) {
  const { search } = useLocation();
  const prefill = new URLSearchParams(search).get("question") ?? "";
  const missing = typeof query.edit === "number" && !editing && !refusal;
  const [form, fields] = useForm({
    id: "kb-node",
    lastResult: refusal,
    constraint: getZodConstraint(NodeFormSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: NodeFormSchema }),
    defaultValue: editing
      ? {
          id: String(editing.id),
          groupId: String(editing.groupId),
          question: editing.question,
          answer: editing.answer,
          labels: editing.labels.join("，"),
          state: String(editing.state),
        }
      : { groupId: query.group ? String(query.group) : "", question: prefill.slice(0, KNOWLEDGE_QUESTION_MAX), state: "1" },
  });
  if (missing) return <Notice tone="error">要编辑的知识不存在或不在当前页，请在列表中重新选择。</Notice>;
  const editingId = editing?.id ?? (refusal?.initialValue?.id ? String(refusal.initialValue.id) : undefined);
  return (
    <section aria-labelledby="kb-form-title" className="sb-section sb-kb-form">
      <h3 id="kb-form-title">{editingId ? "编辑知识" : "新建知识"}</h3>
      <form method="post" {...getFormProps(form)} className="sb-form-grid">
        <CsrfInput />
        <input type="hidden" name="intent" value="node.save" />
        {editingId ? <input type="hidden" name="id" value={editingId} /> : null}
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field field={fields.groupId} label="分组">
          <select {...getSelectProps(fields.groupId)} className={inputClass(fields.groupId)}>
            <option value="">请选择</option>
            <CodeOptions table={namedChoices(groups)} />
          </select>
        </Field>
        <Field field={fields.state} label="状态">
          <select {...getSelectProps(fields.state)} className={inputClass(fields.state)}>
            <CodeOptions table={KNOWLEDGE_STATES} />
          </select>
        </Field>
        <div className="sb-kb-wide">
          <Field field={fields.question} label="问题">
            <input
              {...getInputProps(fields.question, { type: "text" })}
              maxLength={KNOWLEDGE_QUESTION_MAX}
              className={inputClass(fields.question)}
            />
          </Field>
        </div>
        <div className="sb-kb-wide">
          <Field field={fields.answer} label="答案（坐席的快捷回复内容）">
            <textarea
              {...getTextareaProps(fields.answer)}
              rows={4}
              maxLength={KNOWLEDGE_ANSWER_MAX}
              className={`p-inputtextarea ${inputClass(fields.answer)}`}
            />
          </Field>
        </div>
        <div className="sb-kb-wide">
          <Field field={fields.labels} label="标签（以逗号、顿号或空格分隔）">
            <input {...getInputProps(fields.labels, { type: "text" })} className={inputClass(fields.labels)} />
          </Field>
        </div>
        <div className="sb-form-actions">
          <button type="submit" className="p-button">
            保存
          </button>
          <a className="p-button p-button-text" href={screenHref(query, { page: query.page > 1 ? query.page : undefined })}>
            取消
          </a>
        </div>
      </form>
    </section>
  );
}
