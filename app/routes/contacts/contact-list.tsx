import { labelOf, RESULT_CODES } from "#contracts/codes";
import type { CustomerContact, CustomerProperty } from "#contracts/customers";
import { DataTable } from "#app/components/data-table";
import { recordHref } from "#app/lib/list-url";
import type { contactCalls } from "#app/services/customers.server";
import { screenHref, valueText } from "./values";

/** The page of contacts, ticked for the bulk form, a column per property, and their own links. */
export function ContactTable({
  contacts,
  properties,
  admin,
  keyword,
  search,
}: {
  contacts: { list: CustomerContact[]; total: number };
  properties: CustomerProperty[];
  admin: boolean;
  keyword: string | undefined;
  search: string;
}) {
  return (
    <DataTable<CustomerContact>
      caption="联系人列表"
      rowKey="id"
      selectionForm="contacts-bulk"
      emptyMessage={keyword ? `没有找到“${keyword}”` : "暂无联系人"}
      config={{
        list: contacts.list,
        total: contacts.total,
        attributes: { selection: true },
        eleItem: [
          { prop: "name", label: "姓名", render: (c) => <strong>{c.name || "—"}</strong> },
          { prop: "phone", label: "手机号" },
          ...properties.map((p) => ({
            prop: "values" as const,
            label: p.name,
            render: (c: CustomerContact) => valueText(c, p) || "—",
          })),
          { prop: "groups", label: "分组", render: (c) => c.groups.map((g) => g.name).join("、") || "—" },
          {
            prop: "id",
            label: "操作",
            render: (c) => (
              <div className="sb-row-actions">
                {admin ? (
                  <a href={screenHref(search, { edit: c.id })} aria-label={`编辑「${c.name || c.phone}」`}>
                    编辑
                  </a>
                ) : null}
                <a href={screenHref(search, { history: c.id })} aria-label={`「${c.name || c.phone}」的通话记录`}>
                  通话记录
                </a>
              </div>
            ),
          },
        ],
      }}
    />
  );
}

/** The calls of the contact whose 通话记录 was opened. */
export function ContactHistory({ contact, history }: { contact: CustomerContact; history: Awaited<ReturnType<typeof contactCalls>> }) {
  return (
    <section aria-labelledby="contact-history-title" className="sb-section">
      <h2 id="contact-history-title" className="sb-section-title">
        「{contact.name || contact.phone}」的通话记录
      </h2>
      <DataTable
        caption="通话记录"
        rowKey="callId"
        emptyMessage="暂无通话记录"
        config={{
          list: history.list,
          total: history.total,
          eleItem: [
            { prop: "callTime", label: "时间", type: "datetime", minWidth: 150 },
            { prop: "direction", label: "方向", render: (r) => (r.direction === "inbound" ? "呼入" : "外呼") },
            { prop: "campaignName", label: "活动", render: (r) => r.campaignName ?? "—" },
            { prop: "callResult", label: "结果", render: (r) => labelOf(RESULT_CODES, r.callResult, r.callResultName) },
            { prop: "callDuration", label: "时长（秒）" },
            { prop: "callId", label: "详情", render: (r) => <a href={recordHref("/callHistory", r.callId)}>查看通话详情</a> },
          ],
        }}
      />
    </section>
  );
}
