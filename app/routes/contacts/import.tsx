import { BUILT_IN_COLUMNS, IMPORT_TARGETS, type CustomerProperty } from "#contracts/customers";
import { CONTACT_FILE_LIMIT } from "#contracts/uploads";
import uploadProgress from "#app/client/upload-progress.js?url";
import { CsrfInput } from "#app/components/csrf-input";
import { DataTable } from "#app/components/data-table";
import { EnhancementScript } from "#app/components/enhancement-script";
import { Notice } from "#app/components/filters";
import type { importMapped } from "#app/services/customers.server";
import type { Mapping } from "./contacts.server";
import { SCREEN } from "./values";

/** An administrator's import: the file, then (when its columns are not all known, or when asked) the mapping step, then the result. */
export function ContactImport({
  properties,
  mapping,
  imported,
}: {
  properties: CustomerProperty[];
  mapping: Mapping | undefined;
  imported: Awaited<ReturnType<typeof importMapped>> | undefined;
}) {
  return (
    <section aria-labelledby="contacts-import-title" className="sb-section">
      <h2 id="contacts-import-title" className="sb-section-title">
        导入联系人
      </h2>
      <p className="sb-hint">
        CSV（UTF-8）或 XLSX 文件，不超过 {CONTACT_FILE_LIMIT.mb}MB、10 万行。第一行为表头：姓名、手机号，以及与客户属性同名的列（
        {properties.map((p) => p.name).join("、") || "暂无属性"}
        ）。列名不同或有不需要的列时，上传后可设置列对应关系。已有的手机号会更新该联系人，文件中重复的手机号只取第一行。
      </p>
      <form method="post" encType="multipart/form-data" className="sb-inline-forms" data-upload-progress>
        <CsrfInput />
        <input type="hidden" name="intent" value="import" />
        <div className="sb-field">
          <label htmlFor="contacts-file">联系人文件</label>
          <input id="contacts-file" name="file" type="file" accept=".csv,.xlsx" required className="p-inputtext" />
        </div>
        <label>
          <input type="checkbox" name="mapColumns" value="on" /> 导入前设置列对应关系
        </label>
        <button type="submit" className="p-button">
          上传并导入
        </button>
        <progress className="sb-upload-progress" max={100} value={0} hidden aria-label="上传进度" />
      </form>
      <EnhancementScript src={uploadProgress} />
      {mapping ? <ColumnMapping mapping={mapping} properties={properties} /> : null}
      {imported ? (
        <Notice tone={imported.rejected > 0 ? "info" : "success"}>
          导入完成：新增 {imported.created} 个，更新 {imported.updated} 个，失败 {imported.rejected} 行。
          {imported.ignoredColumns.length ? ` 未导入的列：${imported.ignoredColumns.join("、")}。` : ""}
          {imported.rejected > 0 ? (
            <>
              {" "}
              <a href={`${SCREEN}/imports/${imported.importId}/errors`} download>
                下载全部失败行
              </a>
              <DataTable
                caption="导入失败的行"
                rowKey="row"
                config={{
                  list: imported.errors,
                  total: imported.rejected,
                  eleItem: [
                    { prop: "row", label: "行号" },
                    { prop: "phone", label: "手机号" },
                    { prop: "message", label: "原因" },
                  ],
                }}
              />
            </>
          ) : null}
        </Notice>
      ) : null}
    </section>
  );
}

/** The import's mapping step: each column of the file, a few of its values, and what it becomes. */
function ColumnMapping({ mapping, properties }: { mapping: Mapping; properties: CustomerProperty[] }) {
  const { upload, chosen, error } = mapping;
  const targets = [
    { value: "none", label: "不导入" },
    { value: IMPORT_TARGETS.name, label: BUILT_IN_COLUMNS.name },
    { value: IMPORT_TARGETS.phone, label: BUILT_IN_COLUMNS.phone },
    ...properties.map((p) => ({ value: String(p.id), label: p.name })),
  ];
  const rows = upload.columns.map((c, index) => ({ ...c, index, chosen: chosen?.[index] ?? (c.target || "none") }));
  return (
    <section aria-labelledby="mapping-title" className="sb-section">
      <h3 id="mapping-title">设置列对应关系：{upload.fileName}</h3>
      <p className="sb-hint">
        为文件的每一列选择导入为哪个字段：“手机号”必选，每个字段只能对应一列，不需要的列选“不导入”。已按列名填好能识别的列。
      </p>
      {error ? <Notice tone="error">{error}</Notice> : null}
      <form method="post">
        <CsrfInput />
        <input type="hidden" name="intent" value="import.mapped" />
        <input type="hidden" name="uploadId" value={upload.uploadId} />
        <DataTable
          caption="文件的列"
          rowKey="index"
          config={{
            list: rows,
            total: rows.length,
            eleItem: [
              { prop: "header", label: "文件中的列", render: (r) => r.header || `第 ${r.index + 1} 列（无表头）` },
              { prop: "samples", label: "示例值", render: (r) => r.samples.filter(Boolean).join("、") || "—" },
              {
                prop: "target",
                label: "导入为",
                render: (r) => (
                  <select
                    name="target"
                    defaultValue={r.chosen}
                    aria-label={`「${r.header || `第 ${r.index + 1} 列`}」导入为`}
                    className="p-inputtext"
                  >
                    {targets.map((t) => (
                      <option key={t.value} value={t.value}>
                        {t.label}
                      </option>
                    ))}
                  </select>
                ),
              },
            ],
          }}
        />
        <div className="sb-form-actions">
          <button type="submit" className="p-button">
            按此对应导入
          </button>
          <a className="p-button p-button-text" href={SCREEN}>
            取消
          </a>
        </div>
      </form>
    </section>
  );
}
