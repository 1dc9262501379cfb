import { KNOWLEDGE_IMPORT_COLUMNS, type KnowledgeGroup, type KnowledgeImportResult } from "#contracts/knowledge";
import { KNOWLEDGE_FILE_LIMIT } from "#contracts/uploads";
import { getFormProps } from "@conform-to/react";
import { CodeSelect, namedChoices } from "#app/components/code-select";
import { CsrfInput } from "#app/components/csrf-input";
import { DataTable } from "#app/components/data-table";
import { Notice } from "#app/components/filters";
import { FormErrors } from "#app/components/form-field";
import { useIntentForm } from "#app/components/intent-form";

/** A file of knowledge imported into a group, and the rows it refused. */
export function KnowledgeImport({
  groups,
  groupId,
  result,
  imported,
}: {
  groups: KnowledgeGroup[];
  /** The group shown, chosen until the user picks another. */
  groupId: string;
  /** The action's answer: a refused import comes back with the group chosen and why. */
  result: unknown;
  imported: KnowledgeImportResult | undefined;
}) {
  const [form, fields] = useIntentForm("node.import", result, { groupId });
  const errors = [...(form.errors ?? []), ...(fields.groupId.errors ?? [])];
  return (
    <section aria-labelledby="kb-import-title" className="sb-section">
      <h2 id="kb-import-title" className="sb-section-title">
        批量导入
      </h2>
      <p className="sb-hint">
        CSV（UTF-8）或 XLSX 文件，不超过 {KNOWLEDGE_FILE_LIMIT.mb}MB，第一行为表头：{KNOWLEDGE_IMPORT_COLUMNS.join("、")}
        （问题、答案必填；标签以逗号或顿号分隔；状态填“启用”或“停用”，留空为启用）。
      </p>
      <form method="post" encType="multipart/form-data" {...getFormProps(form)} className="sb-inline-forms">
        <CsrfInput />
        <input type="hidden" name="intent" value="node.import" />
        <CodeSelect
          id={fields.groupId.id}
          name={fields.groupId.name}
          label="导入到分组"
          table={namedChoices(groups)}
          defaultValue={String(fields.groupId.initialValue ?? "")}
          empty="请选择"
          required
        />
        <div className="sb-field">
          <label htmlFor="kb-import-file">知识文件</label>
          <input id="kb-import-file" name="file" type="file" accept=".csv,.xlsx" required className="p-inputtext" />
        </div>
        <button type="submit" className="p-button">
          上传并导入
        </button>
      </form>
      <FormErrors id={form.errorId} errors={errors} />
      {imported ? (
        <Notice tone={imported.rejected > 0 ? "info" : "success"}>
          导入完成：成功 {imported.accepted} 条，失败 {imported.rejected} 条。
          {imported.errors.length > 0 ? (
            <DataTable
              caption="导入失败的行"
              rowKey="row"
              config={{
                list: imported.errors,
                total: imported.rejected,
                eleItem: [
                  { prop: "row", label: "行号" },
                  { prop: "message", label: "原因" },
                ],
              }}
            />
          ) : null}
        </Notice>
      ) : null}
    </section>
  );
}
