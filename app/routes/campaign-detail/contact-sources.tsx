import { getFormProps, getSelectProps } from "@conform-to/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { IMPORT_STATUSES } from "#contracts/codes";
import { CAMPAIGN_GROUP_MAX } from "#contracts/customers";
import { CodeLabel } from "#app/components/code-tag";
import { DataTable } from "#app/components/data-table";
import { EnhancementScript } from "#app/components/enhancement-script";
import { Notice } from "#app/components/filters";
import { inputClass } from "#app/components/form-field";
import { refusalMessageOf, useIntentForm } from "#app/components/intent-form";
import { maskPhone } from "#app/lib/format";
import uploadProgress from "#app/client/upload-progress.js?url";
import type { contactsToCampaign, listGroups } from "#app/services/customers.server";
import type { listCampaignImports, uploadContacts } from "#app/services/outbound.server";

/**
 * Where a campaign's contacts come from: a CSV or XLSX list (its outcome with the refused rows),
 * a contact group, and the imports so far with their progress.
 */
export function ContactSources({
  campaignId,
  groups,
  imports,
  result,
  imported,
  fromGroup,
}: {
  campaignId: number;
  groups: Awaited<ReturnType<typeof listGroups>>;
  imports: Awaited<ReturnType<typeof listCampaignImports>>;
  /** The action's answer, for a refusal of the import or group form. */
  result: unknown;
  /** A list file's outcome, with its refused rows. */
  imported?: Awaited<ReturnType<typeof uploadContacts>>;
  /** A contact group's outcome, with the members refused. */
  fromGroup?: Awaited<ReturnType<typeof contactsToCampaign>>;
}) {
  const errorOf = (intent: string) => refusalMessageOf(result, intent);
  const [groupForm, group] = useIntentForm("group", result);
  return (
    <>
      <form method="post" encType="multipart/form-data" className="sb-inline-forms" data-upload-progress>
        <AuthenticityTokenInput name="csrf" />
        <input type="hidden" name="intent" value="import" />
        <div className="sb-field">
          <label htmlFor="contact-file">名单文件（CSV 或 XLSX，表头含“手机号”，可含“姓名”及其他列）</label>
          <input id="contact-file" name="file" type="file" accept=".csv,.xlsx" required className="p-inputtext" />
        </div>
        <button type="submit" className="p-button">
          上传并导入
        </button>
        <progress className="sb-upload-progress" max={100} value={0} hidden aria-label="上传进度" />
      </form>
      <EnhancementScript src={uploadProgress} />
      {errorOf("import") ? <Notice tone="error">{errorOf("import")}</Notice> : null}
      {imported ? (
        <Notice tone="info">
          导入完成：成功 {imported.accepted} 条，失败 {imported.rejected} 条。
          {imported.rejected > 0 ? (
            <>
              {" "}
              <a href={`/campaign/${campaignId}/imports/${imported.importId}/errors`}>下载失败数据</a>
              <DataTable
                caption="导入失败的行"
                rowKey="rowNo"
                config={{
                  list: imported.errors,
                  total: imported.rejected,
                  eleItem: [
                    { prop: "rowNo", label: "行号" },
                    { prop: "phone", label: "手机号码", render: (e) => maskPhone(e.phone) },
                    { prop: "customerName", label: "客户姓名" },
                    { prop: "reason", label: "原因" },
                  ],
                }}
              />
            </>
          ) : null}
        </Notice>
      ) : null}
      <h3 id="group-source-title">从联系人分组导入</h3>
      {groups.length > 0 ? (
        <form method="post" {...getFormProps(groupForm)} className="sb-inline-forms" aria-labelledby="group-source-title">
          <AuthenticityTokenInput name="csrf" />
          <input type="hidden" name="intent" value="group" />
          <div className="sb-field">
            <label htmlFor={group.groupId.id}>联系人分组</label>
            <select {...getSelectProps(group.groupId)} required className={inputClass(group.groupId)} aria-describedby="group-source-hint">
              <option value="">请选择</option>
              {groups.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name}（{g.memberCount} 人）
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="p-button p-button-outlined">
            导入分组成员
          </button>
        </form>
      ) : (
        <p>
          还没有联系人分组。可在<a href="/contacts">联系人</a>中勾选联系人建立分组。
        </p>
      )}
      <p id="group-source-hint" className="sb-hint">
        分组成员作为一个新批次加入本活动，每次最多 {CAMPAIGN_GROUP_MAX} 人；号码格式、重复号码和黑名单的检查与文件导入相同。
      </p>
      {errorOf("group") ? <Notice tone="error">{errorOf("group")}</Notice> : null}
      {fromGroup ? (
        <Notice tone={fromGroup.rejected > 0 ? "info" : "success"}>
          已从分组导入：成功 {fromGroup.accepted} 个，失败 {fromGroup.rejected} 个。
          {fromGroup.rejected > 0 ? (
            <>
              {" "}
              <a href={`/campaign/${campaignId}/imports/${fromGroup.importId}/errors`}>下载失败数据</a>
              <DataTable
                caption="未导入的分组成员"
                rowKey="phone"
                config={{
                  list: fromGroup.errors,
                  total: fromGroup.rejected,
                  eleItem: [
                    { prop: "phone", label: "手机号码", render: (e) => maskPhone(e.phone) },
                    { prop: "name", label: "客户姓名" },
                    { prop: "reason", label: "原因" },
                  ],
                }}
              />
            </>
          ) : null}
        </Notice>
      ) : null}
      {imports.some((i) => i.status === "running") ? (
        <p role="status">
          有名单正在后台导入，导入完成前其批次不会外呼。<a href={`/campaign/${campaignId}`}>刷新进度</a>
        </p>
      ) : null}
      {imports.length > 0 ? (
        <DataTable
          caption="导入记录"
          rowKey="id"
          config={{
            list: imports,
            total: imports.length,
            eleItem: [
              { prop: "fileName", label: "文件" },
              {
                prop: "status",
                label: "状态",
                render: (i) => (
                  <>
                    <CodeLabel table={IMPORT_STATUSES} code={i.status} />
                    {i.status === "running" ? ` 已读 ${i.processed} 行` : null}
                    {i.message ? `：${i.message}` : null}
                  </>
                ),
              },
              { prop: "accepted", label: "成功" },
              { prop: "rejected", label: "失败" },
              { prop: "createdAt", label: "导入时间", type: "datetime", minWidth: 150 },
              {
                prop: "id",
                label: "失败数据",
                render: (i) => (i.rejected > 0 ? <a href={`/campaign/${campaignId}/imports/${i.id}/errors`}>下载</a> : "-"),
              },
            ],
          }}
        />
      ) : null}
    </>
  );
}
