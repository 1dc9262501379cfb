import { FilterSelect, namedChoices } from "./code-select";
import { FilterBar } from "./filters";
import { Outlet, useLoaderData, useLocation } from "@remix-run/react";
import {
  CALL_KINDS,
  CAMPAIGN_TYPES,
  CONNECTED_FLAGS,
  INTENT_LABELS,
  OUTCOME_CODES,
  RESULT_CODES,
  labelOf,
  resultCodeTone,
  toneOf,
  type CodeTable,
} from "#contracts/codes";
import type { CallRecordRow } from "#contracts/contact";
import { recordHref, withParams } from "#app/lib/list-url";
import type { loadCallList } from "#app/server/call-list.server";
import { maskPhone } from "#app/lib/format";
import { callLinkId } from "#app/lib/call-detail";
import { CodeTag, PoorQualityTag } from "./code-tag";
import { DataTable, formatCell, type Column } from "./data-table";
import { Paginator, pageCount } from "./paginator";
import { Screen } from "./screen";

/** Which calls a list shows: outbound lists have outcomes and call kinds, inbound lists do not. */
export type CallListKind = "all" | "outbound" | "inbound";

type Props = {
  title: string;
  kind: CallListKind;
  /** The list's own path (not the current URL, which may be a call's dialog under it). */
  path: string;
  /** The list's export resource route (callLog), offered as CSV and XLSX downloads. */
  exportPath?: string;
};

/**
 * A call list screen (callHistory, callLog, incoming/history, incoming/call): filters as a GET
 * form kept in the URL, the lean table, pagination links, and the call-detail dialog (a nested
 * route) rendered over it by the <Outlet/>.
 */
export function CallListScreen({ title, kind, path: pathname, exportPath }: Props) {
  const loaded = useLoaderData<typeof loadCallList>();
  const { search } = useLocation();
  const columns = callColumns(kind, pathname, search);
  const campaignName =
    loaded.ok && loaded.values.campaign
      ? loaded.page.list.find((r) => String(r.campaignId) === loaded.values.campaign)?.campaignName
      : undefined;

  return (
    <Screen
      title={title}
      actions={
        exportPath && loaded.ok ? (
          <>
            <a
              className="p-button p-button-sm p-button-outlined"
              href={withParams(exportPath, search, { format: "csv", page: undefined, size: undefined })}
              download
            >
              <i className="pi pi-download" aria-hidden="true" /> 导出CSV
            </a>
            <a
              className="p-button p-button-sm p-button-outlined"
              href={withParams(exportPath, search, { format: "xlsx", page: undefined, size: undefined })}
              download
            >
              <i className="pi pi-file-excel" aria-hidden="true" /> 导出Excel
            </a>
          </>
        ) : undefined
      }
    >
      <CallFilters kind={kind} values={loaded.values} agents={loaded.agents} pathname={pathname} campaignName={campaignName} />
      {!loaded.ok ? (
        <div className="p-message p-message-error sb-message" role="alert">
          <p>筛选条件有误，请修改后重试：</p>
          <ul>
            {loaded.errors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
        </div>
      ) : (
        <>
          <PastEndNotice
            total={loaded.page.total}
            pageNo={loaded.pageNo}
            pageSize={loaded.pageSize}
            rows={loaded.page.list.length}
            pathname={pathname}
            search={search}
          />
          <div className="sb-dense-table">
            <DataTable<CallRecordRow>
              caption={`${title}列表`}
              rowKey="callId"
              indexOffset={(loaded.pageNo - 1) * loaded.pageSize}
              emptyMessage="没有符合条件的通话记录"
              config={{ list: loaded.page.list, total: loaded.page.total, eleItem: columns, attributes: { index: true } }}
            />
          </div>
          <Paginator
            total={loaded.page.total}
            estimated={loaded.page.estimated}
            pageNo={loaded.pageNo}
            pageSize={loaded.pageSize}
            pathname={pathname}
            search={search}
            cursors={loaded.cursors}
          />
        </>
      )}
      <Outlet />
    </Screen>
  );
}

function PastEndNotice({
  total,
  pageNo,
  pageSize,
  rows,
  pathname,
  search,
}: {
  total: number;
  pageNo: number;
  pageSize: number;
  rows: number;
  pathname: string;
  search: string;
}) {
  const pages = pageCount(total, pageSize);
  if (rows > 0 || pageNo <= pages) return null;
  return (
    <p className="p-message p-message-warn sb-message" role="alert">
      第 {pageNo} 页不存在：共 {total} 条，{pages} 页。
      <a href={withParams(pathname, search, { page: pages === 1 ? undefined : pages })}>前往最后一页</a>
    </p>
  );
}

function callColumns(kind: CallListKind, pathname: string, search: string): Column<CallRecordRow>[] {
  const tag = (table: CodeTable<string | number>, code: string | number | null) =>
    code === null ? "-" : <CodeTag tone={toneOf(table, code)}>{labelOf(table, code)}</CodeTag>;
  // Thirteen columns did not fit a laptop (通话时长 and 坐席 were off the table's right edge):
  // the call kind goes under the campaign type, 未接通 into 通话时长, and the time's hour under its date.
  const columns: Array<Column<CallRecordRow> | false> = [
    {
      prop: "callTime",
      label: "呼叫时间",
      render: (row) => {
        const [date, time] = String(formatCell("datetime", row.callTime)).split(" ");
        return (
          <>
            <div className="sb-nowrap">{date}</div>
            <div className="sb-nowrap">{time}</div>
          </>
        );
      },
    },
    { prop: "phone", label: "电话号码", type: "code", render: (row) => maskPhone(row.phone) },
    {
      prop: "campaignName",
      label: "活动名称",
      minWidth: 120,
      // Filters the list by that campaign: the campaign filter without a campaign catalogue.
      render: (row) =>
        row.campaignId && row.campaignName ? (
          <a href={withParams(pathname, search, { campaign: row.campaignId, page: undefined })} title="只看该活动">
            {row.campaignName}
          </a>
        ) : (
          "-"
        ),
    },
    {
      prop: "campaignType",
      // An inbound call has no call kind and no outbound result: nothing, not 上传呼叫.
      label: kind === "inbound" ? "活动类型" : "活动/呼叫类型",
      render: (row) => (
        <>
          {row.campaignType === null ? "-" : labelOf(CAMPAIGN_TYPES, row.campaignType)}
          {kind !== "inbound" && row.direction !== "inbound" ? <div className="sb-muted">{labelOf(CALL_KINDS, row.callKind)}</div> : null}
        </>
      ),
    },
    kind !== "inbound" && {
      prop: "outboundResult",
      label: "外呼结果",
      render: (row) => (row.direction === "inbound" ? "-" : tag(OUTCOME_CODES, row.outboundResult)),
    },
    {
      prop: "callResult",
      label: "结果码",
      render: (row) => (
        <>
          <CodeTag tone={resultCodeTone(row.callResult)}>{`${row.callResult} ${row.callResultName}`}</CodeTag>
          {row.poorQuality ? <PoorQualityTag poor={row.poorQuality} /> : null}
        </>
      ),
    },
    { prop: "intent", label: "意向标签", render: (row) => (row.intent ? labelOf(INTENT_LABELS, row.intent) : "-") },
    // A call never answered was never talked on: its 通话时长 says 未接通, whatever the platform counted.
    {
      prop: "callDuration",
      label: "通话时长",
      type: "second",
      render: (row) => (row.isAnswer === 1 ? formatCell("second", row.callDuration) : tag(CONNECTED_FLAGS, row.isAnswer)),
    },
    { prop: "agentName", label: "坐席", type: "content", maxChars: 8 },
    {
      prop: "callId",
      label: "操作",
      render: (row) => (
        <a
          id={callLinkId(row.callId)}
          href={recordHref(pathname, row.callId, search)}
          aria-label={`查看 ${maskPhone(row.phone)} 的通话详情`}
        >
          查看
        </a>
      ),
    },
  ];
  return columns.filter((c): c is Column<CallRecordRow> => c !== false);
}

function CallFilters({
  kind,
  values,
  agents,
  pathname,
  campaignName,
}: {
  kind: CallListKind;
  values: Record<string, string>;
  agents: Array<{ id: number; name: string }> | null;
  pathname: string;
  campaignName?: string | null;
}) {
  return (
    <FilterBar label="筛选条件" action={pathname} resetHref={pathname} size={values.size ?? ""}>
      <div className="sb-field">
        <label htmlFor="filter-start">开始日期</label>
        <input id="filter-start" name="start" type="date" defaultValue={values.start} className="p-inputtext p-component" />
      </div>
      <div className="sb-field">
        <label htmlFor="filter-end">结束日期</label>
        <input id="filter-end" name="end" type="date" defaultValue={values.end} className="p-inputtext p-component" />
      </div>
      <div className="sb-field">
        <label htmlFor="filter-phone">电话号码</label>
        <input
          id="filter-phone"
          name="phone"
          type="search"
          inputMode="tel"
          maxLength={20}
          defaultValue={values.phone}
          className="p-inputtext p-component"
        />
      </div>
      <FilterSelect
        id="filter-result"
        name="result"
        label="结果码"
        table={RESULT_CODES.map((e) => ({ code: e.code, label: `${e.code} ${e.label}` }))}
        value={values.result}
      />
      {kind !== "inbound" ? (
        <FilterSelect id="filter-outcome" name="outcome" label="外呼结果" table={OUTCOME_CODES} value={values.outcome} />
      ) : null}
      <FilterSelect id="filter-answered" name="answered" label="是否接通" table={CONNECTED_FLAGS} value={values.answered} />
      {kind !== "inbound" ? <FilterSelect id="filter-kind" name="kind" label="呼叫类型" table={CALL_KINDS} value={values.kind} /> : null}
      {agents ? <FilterSelect id="filter-agent" name="agent" label="坐席" table={namedChoices(agents)} value={values.agent} /> : null}
      {values.campaign ? (
        <div className="sb-field">
          <span className="sb-field-label">活动</span>
          <span className="p-chip p-component">
            <span className="p-chip-text">{campaignName ?? `编号 ${values.campaign}`}</span>
            <input type="hidden" name="campaign" value={values.campaign} />
            <a
              className="p-chip-remove-icon pi pi-times"
              href={withParams(pathname, new URLSearchParams(values), { campaign: undefined, page: undefined })}
              aria-label="清除活动筛选"
            />
          </span>
        </div>
      ) : null}
    </FilterBar>
  );
}
