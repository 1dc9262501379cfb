import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import {
  CALL_RESULTS,
  CAMPAIGN_TYPES,
  GENDERS,
  INTENT_LABELS,
  INBOUND_CAMPAIGN_TYPE,
  OUTCOME_CODES,
  RESULT_CODES,
  labelOf,
  resultCodeTone,
  toneOf,
} from "#contracts/codes";
import type { FlowParamItem } from "#contracts/robot";
import { BUSINESS_FIELDS } from "#contracts/workbench-live";
import { requireAccess } from "#app/server/access.server";
import type { WorkOrderFormState } from "#app/server/work-order-form.server";
import { WorkOrderCard } from "#app/components/work-order-form";
import { mayCreateWorkOrders, workOrderScreen } from "#app/lib/work-order-access";
import { listWorkOrderTemplates } from "#app/services/work-orders.server";
import { callIdOf, callWorkOrderAction } from "#app/server/call-work-order.server";
import { CodeLabel, CodeTag, PoorQualityTag } from "#app/components/code-tag";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { DIALOG_WIDTH_PX, TABLE_MAX_HEIGHT_PX, callLinkId, chooseTab, detailTabs } from "#app/lib/call-detail";
import { formatDateTime, formatDuration, maskPhone } from "#app/lib/format";
import type { RouteHandle } from "#app/lib/handle";
import { getCallDetail } from "#app/services/contact.server";
import { listFlowInputParams, listFlowOutputStates } from "#app/services/robot.server";
import callDetailScript from "#app/client/call-detail.js?url";
import { EnhancementScript } from "#app/components/enhancement-script";
import { Conversation } from "#app/components/call-conversation";

/**
 * The call-detail dialog (spec §2, §3, §9), a nested route under every call list so that it works
 * without JavaScript and can be linked to: /callHistory/123?tab=call. It does not hydrate: the
 * recording player and the work-order card's template choice are enhanced by one small script
 * (app/client/call-detail.js, decision 032); the card posts as a form.
 */
export const handle: RouteHandle = { title: "通话详情" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { caller, user, menu } = await requireAccess(request);
  const callId = callIdOf(params.id);
  const detail = await getCallDetail(caller, callId);
  // The work order made from the call, or the form for whoever makes work orders (decision 026).
  const mayCreate = mayCreateWorkOrders(menu);
  const workOrder = {
    recordBase: workOrderScreen(menu),
    templates: mayCreate && !detail.workOrder ? await listWorkOrderTemplates(caller, 1) : [],
    mayCreate,
  };
  const tabs = detailTabs(detail);
  const tab = chooseTab(tabs, new URL(request.url).searchParams.get("tab"));
  // The flow's input parameters name the user data's fields (customerName → 客户姓名) and fill their tab.
  const inputParams =
    detail.flowId !== null && (detail.userData.data || tab?.key === "params") ? await listFlowInputParams(caller, detail.flowId) : [];
  let items: FlowParamItem[] = [];
  if (detail.flowId !== null && tab?.key === "state") items = await listFlowOutputStates(caller, detail.flowId);
  if (tab?.key === "params") items = inputParams;
  const fieldNames = Object.fromEntries(inputParams.map((param) => [param.variable, param.name]));
  return { detail, tabs, tab: tab?.key ?? null, items, fieldNames, agentId: user.id, workOrder };
}

/** POST without JavaScript: a work order made from this call (the one action of the dialog). */
export async function action(args: ActionFunctionArgs) {
  return callWorkOrderAction(args);
}

/**
 * userData.data is a JSON string (spec §3), the fields a campaign's contact was imported with:
 * shown as a list of field and value when it is an object, as is otherwise (never as raw JSON).
 */
function UserData({ raw, names }: { raw: string | null | undefined; names: Record<string, string> }) {
  if (!raw) return <>-</>;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return <>{raw}</>;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return <>{String(parsed)}</>;
  const fields = Object.entries(parsed as Record<string, unknown>);
  if (fields.length === 0) return <>-</>;
  return (
    <dl className="sb-user-data">
      {fields.map(([name, value]) => (
        <div key={name}>
          <dt>{names[name] ?? name}</dt>
          <dd>{typeof value === "object" && value !== null ? JSON.stringify(value) : String(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

export default function CallDetailDialog() {
  const { detail, tabs, tab, items, fieldNames, agentId, workOrder } = useLoaderData<typeof loader>();
  const refused = (useActionData<typeof action>() as { workOrder?: WorkOrderFormState } | undefined)?.workOrder ?? null;
  const { pathname, search } = useLocation();
  const listPath = pathname.replace(/\/[^/]+$/, "");
  const listSearch = new URLSearchParams(search);
  listSearch.delete("tab");
  // The fragment names the row's 查看 link (call-list.tsx): the list comes back with focus there.
  const closeHref = `${listPath}${listSearch.size ? `?${listSearch}` : ""}#${callLinkId(detail.callId)}`;
  // Focus starts in the dialog: on 关闭, or on the tab just chosen (the dialog again at its address).
  const tabChosen = new URLSearchParams(search).has("tab") && tab !== null;
  const tabHref = (key: string) => {
    const params = new URLSearchParams(search);
    params.set("tab", key);
    return `${pathname}?${params}`;
  };
  const recordingHref = `${pathname}/recording`;

  const outboundResult = detail.outboundResult ? (
    <CodeTag key="o" tone={toneOf(OUTCOME_CODES, detail.outboundResult)}>
      {labelOf(OUTCOME_CODES, detail.outboundResult)}
    </CodeTag>
  ) : (
    "-"
  );
  const record = detail.businessRecord;
  const facts: Array<[string, ReactNode] | false> = [
    ["电话号码", maskPhone(detail.phone)],
    ["呼叫时间", formatDateTime(detail.callTime)],
    ["机器人名称", detail.instanceName ?? "-"],
    ["流程版本", detail.flowVersionName ?? "-"],
    ["活动类型", detail.campaignType === null ? "-" : labelOf(CAMPAIGN_TYPES, detail.campaignType)],
    ["性别", labelOf(GENDERS, detail.gender)],
    ["通话时长", detail.isAnswer === 1 ? formatDuration(detail.callDuration) : "-"],
    [
      "结果码",
      <CodeTag
        key="r"
        tone={resultCodeTone(detail.callResult)}
      >{`${detail.callResult} ${detail.callResultName || labelOf(RESULT_CODES, detail.callResult)}`}</CodeTag>,
    ],
    // An inbound call has no outbound result (its lists show none either).
    detail.campaignType !== INBOUND_CAMPAIGN_TYPE && ["外呼结果", outboundResult],
    // What the agent saved for the call, else what the robot noted (decision 067).
    ["通话结论", record ? <CodeLabel key="c" table={CALL_RESULTS} code={record.callResult} /> : (detail.attachData.conclusion ?? "-")],
    !!record?.intent && ["意向标签", labelOf(INTENT_LABELS, record.intent)],
    ...BUSINESS_FIELDS.map(
      (field): [string, ReactNode] | false => !!record?.fields[field.name] && [field.label, record.fields[field.name]],
    ),
    !!record?.remark && ["结论备注", record.remark],
    !!record?.agentName && ["处理坐席", record.agentName],
    !!detail.poorQuality && ["通话质量", <PoorQualityTag key="q" poor={detail.poorQuality} detailed />],
  ];

  return (
    <div className="p-dialog-mask p-component-overlay sb-dialog-mask">
      <div
        className="p-dialog p-component sb-call-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="call-detail-title"
        style={{ width: DIALOG_WIDTH_PX }}
      >
        <div className="p-dialog-header">
          <h2 id="call-detail-title" className="p-dialog-title">
            通话详情
          </h2>
          <div className="p-dialog-header-icons">
            <a
              className="p-dialog-header-icon p-dialog-header-close p-link"
              href={closeHref}
              aria-label="关闭"
              data-dialog-close=""
              autoFocus={!tabChosen}
            >
              <span className="p-dialog-header-close-icon pi pi-times" aria-hidden="true" />
            </a>
          </div>
        </div>
        <div className="p-dialog-content">
          <dl className="sb-detail-facts">
            {facts
              .filter((fact) => fact !== false)
              .map(([label, value]) => (
                <div key={label}>
                  <dt>{label}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            <div className="sb-detail-wide">
              <dt>用户数据</dt>
              <dd>
                <UserData raw={detail.userData.data} names={fieldNames} />
              </dd>
            </div>
          </dl>
          <div className="p-tabview p-component">
            <div className="p-tabview-nav-container">
              <ul className="p-tabview-nav" role="tablist">
                {tabs.map((t) => (
                  <li
                    key={t.key}
                    className={`p-unselectable-text${t.key === tab ? " p-tabview-selected p-highlight" : ""}${t.enabled ? "" : " p-disabled"}`}
                    role="presentation"
                  >
                    {t.enabled ? (
                      <a
                        href={tabHref(t.key)}
                        className="p-tabview-nav-link"
                        role="tab"
                        aria-selected={t.key === tab}
                        aria-controls="call-detail-panel"
                        autoFocus={tabChosen && t.key === tab}
                      >
                        <span className="p-tabview-title">{t.label}</span>
                      </a>
                    ) : (
                      <span className="p-tabview-nav-link" role="tab" aria-selected="false" aria-disabled="true" title="当前通话不支持">
                        <span className="p-tabview-title">{t.label}</span>
                      </span>
                    )}
                  </li>
                ))}
              </ul>
            </div>
            <div className="p-tabview-panels" id="call-detail-panel" role="tabpanel">
              {tab === "call" ? (
                <Conversation
                  key={detail.callId}
                  callingResults={detail.callingResults}
                  recordingHref={recordingHref}
                  hasRecording={detail.hasRecording}
                  agentId={agentId}
                />
              ) : tab === "state" || tab === "params" ? (
                <DataTable<FlowParamItem>
                  caption={tab === "state" ? "输出状态" : "流程入参"}
                  rowKey="variable"
                  emptyMessage={tab === "state" ? "暂无输出状态" : "暂无入参"}
                  config={{
                    list: items,
                    total: items.length,
                    maxHeight: TABLE_MAX_HEIGHT_PX,
                    attributes: { index: true },
                    eleItem: [
                      { prop: "name", label: "名称" },
                      { prop: "variable", label: "变量" },
                    ],
                  }}
                />
              ) : (
                <p className="sb-muted">该通话未接通，暂无通话内容。</p>
              )}
            </div>
          </div>
          {detail.workOrder || workOrder.mayCreate ? (
            <WorkOrderCard
              endpoint={`${pathname}/workOrder`}
              formAction={`${pathname}${search}`}
              link={{}}
              linked={detail.workOrder}
              templates={workOrder.templates}
              recordBase={workOrder.recordBase}
              refused={refused}
              hydrated={false}
            />
          ) : null}
          <EnhancementScript src={callDetailScript} />
        </div>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
