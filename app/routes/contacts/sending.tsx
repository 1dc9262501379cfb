import { smsCount } from "#contracts/customers";
import { CodeSelect, namedChoices } from "#app/components/code-select";
import { CsrfInput } from "#app/components/csrf-input";
import { PostButton } from "#app/components/row-actions";
import type { Preview } from "./contacts.server";

type Option = { id: number; name: string };
type Template = Option & { signature: string; content: string };

function TemplateSelect({ id, templates }: { id: string; templates: Template[] }) {
  const table = templates.map((t) => ({ code: t.id, label: `${t.name}（${smsCount(t.content, t.signature).length} 字）` }));
  return <CodeSelect id={id} name="templateId" label="短信模板（已审核通过）" table={table} defaultValue="" empty="请选择" />;
}

/** What can be done with the contacts ticked in the list: an SMS; for an administrator groups, a campaign, deletion. */
export function BulkForm({
  admin,
  groups,
  campaigns,
  templates,
}: {
  admin: boolean;
  groups: Option[];
  campaigns: Option[];
  templates: Template[];
}) {
  return (
    <form method="post" id="contacts-bulk" className="sb-section" aria-label="对勾选的联系人操作">
      <CsrfInput />
      <p className="sb-hint">勾选下表中的联系人后操作，每次最多 500 个。</p>
      <div className="sb-inline-forms">
        <TemplateSelect id="bulk-template" templates={templates} />
        <button type="submit" name="intent" value="sms" className="p-button p-button-outlined">
          发送短信
        </button>
      </div>
      {admin ? (
        <>
          <div className="sb-inline-forms">
            <CodeSelect id="bulk-group" name="targetGroup" label="分组" table={namedChoices(groups)} defaultValue="" empty="请选择" />
            <button type="submit" name="intent" value="group.add" className="p-button p-button-outlined">
              加入分组
            </button>
            <button type="submit" name="intent" value="group.remove" className="p-button p-button-text">
              移出分组
            </button>
          </div>
          <div className="sb-inline-forms">
            <div className="sb-field">
              <label htmlFor="bulk-new-group">新分组名称</label>
              <input id="bulk-new-group" name="newGroup" maxLength={30} className="p-inputtext" />
            </div>
            <button type="submit" name="intent" value="group.create" className="p-button p-button-outlined">
              新建分组
            </button>
          </div>
          <div className="sb-inline-forms">
            <CodeSelect
              id="bulk-campaign"
              name="campaignId"
              label="外呼活动"
              table={namedChoices(campaigns)}
              defaultValue=""
              empty="请选择"
            />
            <button type="submit" name="intent" value="outbound" className="p-button p-button-outlined">
              转入外呼活动
            </button>
            <button type="submit" name="intent" value="contacts.delete" className="p-button p-button-danger p-button-outlined">
              删除所选
            </button>
          </div>
        </>
      ) : null}
    </form>
  );
}

/** An administrator's changes of the group chosen: an SMS to it, a hand-off to a campaign, its name, its deletion. */
export function GroupPanel({
  group,
  admin,
  campaigns,
  templates,
}: {
  group: { id: number; name: string; memberCount: number };
  admin: boolean;
  campaigns: Option[];
  templates: Template[];
}) {
  if (!admin) return null;
  return (
    <>
      <form method="post" className="sb-form" aria-label={`向分组「${group.name}」发送短信`}>
        <CsrfInput />
        <input type="hidden" name="intent" value="sms" />
        <input type="hidden" name="groupId" value={group.id} />
        <TemplateSelect id="group-template" templates={templates} />
        <button type="submit" className="p-button p-button-outlined">
          向本组发送短信
        </button>
      </form>
      <form method="post" className="sb-form" aria-label={`分组「${group.name}」转入外呼活动`}>
        <CsrfInput />
        <input type="hidden" name="intent" value="outbound" />
        <input type="hidden" name="groupId" value={group.id} />
        <CodeSelect id="group-campaign" name="campaignId" label="外呼活动" table={namedChoices(campaigns)} defaultValue="" empty="请选择" />
        <button type="submit" className="p-button p-button-outlined">
          本组转入外呼活动
        </button>
      </form>
      <form method="post" className="sb-form">
        <CsrfInput />
        <input type="hidden" name="intent" value="group.rename" />
        <input type="hidden" name="groupId" value={group.id} />
        <div className="sb-field">
          <label htmlFor="group-name">分组名称</label>
          <input id="group-name" name="name" maxLength={30} required defaultValue={group.name} className="p-inputtext" />
        </div>
        <button type="submit" className="p-button p-button-text">
          重命名
        </button>
      </form>
      <PostButton
        fields={{ intent: "group.delete", groupId: group.id }}
        label="删除分组"
        className="p-button p-button-danger p-button-text"
      />
    </>
  );
}

/** The SMS confirmation's preview: the first texts as they will be sent, and who will not get one. */
export function SmsPreview({ preview }: { preview: Preview }) {
  return (
    <>
      <ul>
        {preview.texts.map((t) => (
          <li key={t.phone}>
            {t.phone}：{t.text}（{t.length} 字，{t.segments} 条）
          </li>
        ))}
      </ul>
      {preview.rejected.length ? <p>不会发送：{preview.rejected.map((r) => `${r.phone} ${r.reason}`).join("；")}</p> : null}
    </>
  );
}
