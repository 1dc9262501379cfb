import type { ReactNode } from "react";
import { formatDate, formatDateTime, formatDuration, formatTime, truncate } from "#app/lib/format";

/**
 * The lean server-rendered table of every list screen (decision 002): PrimeReact DataTable's
 * markup and classes, built from the spec's table config (§3), no client JavaScript.
 *
 * Usage:
 *   <DataTable
 *     caption="通话历史"
 *     rowKey="callId"
 *     config={{ list, total, eleItem: [
 *       { prop: "callTime", label: "呼叫时间", type: "datetime", minWidth: 160 },
 *       { prop: "phone", label: "电话号码", render: (row) => maskPhone(row.phone) },
 *       { prop: "callDuration", label: "通话时长", type: "second" },
 *     ], attributes: { index: true } }}
 *   />
 *
 * Column types (spec §3): text (as is), time / date / datetime (epoch ms or an ISO time, shown in China Standard Time),
 * second (a duration in milliseconds shown as hours, minutes, seconds), content (long text cut with
 * an ellipsis; the whole text shows on hover and on keyboard focus). `render` overrides the type.
 * `attributes.selection` adds a checkbox named `selectionName` per row (value: the row key) for the
 * surrounding form; rows whose `source` is 0 cannot be selected (spec §5). `search` hides rows whose
 * `name` does not contain it (spec §5). `sortHref` turns sortable headers into links (the server
 * sorts). Pagination is separate: see <Paginator/>. A last column labelled 操作 holds the row's
 * actions: it stays in sight at the right edge while the other columns scroll inside the table's
 * box, so a row's action is never off-screen, on a phone or beside a wide table.
 */

/** `second`: a duration in ms; `code`: an identifier (a queue's name, a 工号), kept whole on one line. */
export type ColumnType = "text" | "code" | "time" | "second" | "date" | "datetime" | "content";
export type SortOrder = "asc" | "desc";

export type Column<Row> = {
  prop: keyof Row & string;
  label: string;
  type?: ColumnType;
  sortable?: boolean;
  minWidth?: number;
  /** Characters kept by the `content` type (default 20). */
  maxChars?: number;
  render?: (row: Row, index: number) => ReactNode;
};

export type TableConfig<Row> = {
  list: Row[];
  total: number;
  /** Footer cells by column prop, shown when showSummary is set. */
  summary?: Partial<Record<keyof Row & string, ReactNode>>;
  eleItem: Column<Row>[];
  attributes?: { selection?: boolean; index?: boolean };
  showHeader?: boolean;
  showSummary?: boolean;
  defaultSort?: { prop: keyof Row & string; order: SortOrder };
  /** Scroll height of the table body in px (the call-detail tables use 508). */
  maxHeight?: number;
  /** Fixed height of the body in px, whatever the number of rows. */
  contentHeight?: number;
};

export type DataTableProps<Row> = {
  config: TableConfig<Row>;
  rowKey: keyof Row & string;
  /** Accessible name of the table. */
  caption: string;
  emptyMessage?: ReactNode;
  selectionName?: string;
  /** The id of the form the selection checkboxes belong to, when the table is not inside it. */
  selectionForm?: string;
  /** Row keys ticked when the page renders (a refused bulk action keeps the selection it was given). */
  selected?: readonly string[];
  search?: string;
  sort?: { prop: string; order: SortOrder };
  sortHref?: (prop: string, order: SortOrder) => string;
  /** Index numbers continue across pages: pass (pageNo - 1) * pageSize. */
  indexOffset?: number;
};

/** Epoch milliseconds of a time cell: a number, or an ISO time as some platform lists give it. */
const epochMs = (value: unknown) => (typeof value === "string" && !/^\d+$/.test(value) ? Date.parse(value) : Number(value));

const ONE_LINE_TYPES = new Set<ColumnType | undefined>(["code", "time", "date", "datetime", "second"]);

/** The label of a list's row-actions column (spec §3 table configs). */
export const ROW_ACTIONS_LABEL = "操作";

export function formatCell(type: ColumnType | undefined, value: unknown, maxChars = 20): ReactNode {
  if (value === null || value === undefined || value === "") return "-";
  switch (type) {
    case "time":
      return formatTime(epochMs(value));
    case "date":
      return formatDate(epochMs(value));
    case "datetime":
      return formatDateTime(epochMs(value));
    case "second":
      return formatDuration(Number(value));
    case "content": {
      const text = String(value);
      const short = truncate(text, maxChars);
      if (short === text) return text;
      return (
        // A button, so a keyboard user can focus it to read the whole text.
        <button type="button" className="sb-ellipsis" title={text}>
          {short}
          <span className="sb-ellipsis-full" role="tooltip">
            {text}
          </span>
        </button>
      );
    }
    default:
      return String(value);
  }
}

function isSelectable(row: unknown): boolean {
  return (row as { source?: unknown }).source !== 0;
}

function matchesSearch(row: unknown, search: string | undefined): boolean {
  if (!search) return true;
  const name = (row as { name?: unknown }).name;
  return typeof name === "string" && name.includes(search);
}

export function DataTable<Row>({
  config,
  rowKey,
  caption,
  emptyMessage = "暂无数据",
  selectionName = "ids",
  selectionForm,
  selected,
  search,
  sort,
  sortHref,
  indexOffset = 0,
}: DataTableProps<Row>) {
  const { eleItem: columns, attributes = {}, showHeader = true, showSummary = false, maxHeight, contentHeight } = config;
  const rows = config.list.filter((row) => matchesSearch(row, search));
  const activeSort = sort ?? config.defaultSort;
  const span = columns.length + (attributes.selection ? 1 : 0) + (attributes.index ? 1 : 0);
  const actionsColumn = columns.at(-1)?.label === ROW_ACTIONS_LABEL ? columns.length - 1 : -1;
  // Times and durations stay on one line; the row's actions are pinned (see above).
  const cellClass = (index: number, className?: string) =>
    [className, index === actionsColumn && "sb-actions-column", ONE_LINE_TYPES.has(columns[index].type) && "sb-nowrap"]
      .filter(Boolean)
      .join(" ") || undefined;
  const scrollStyle = maxHeight || contentHeight ? { maxHeight, height: contentHeight, overflow: "auto" as const } : undefined;

  return (
    <div className={`p-datatable p-component p-datatable-gridlines p-datatable-sm${scrollStyle ? " p-datatable-scrollable" : ""}`}>
      <div className="p-datatable-wrapper" style={scrollStyle}>
        <table className="p-datatable-table" role="table">
          <caption className="p-hidden-accessible">{caption}</caption>
          {showHeader ? (
            <thead className="p-datatable-thead">
              <tr role="row">
                {attributes.selection ? (
                  <th className="p-selection-column" scope="col">
                    <span className="p-hidden-accessible">选择</span>
                  </th>
                ) : null}
                {attributes.index ? (
                  <th scope="col" className="sb-index-column">
                    <span className="p-column-title">序号</span>
                  </th>
                ) : null}
                {columns.map((column, columnIndex) => {
                  const sorted = activeSort?.prop === column.prop ? activeSort.order : undefined;
                  const sortable = column.sortable && sortHref;
                  return (
                    <th
                      key={`${column.prop}/${column.label}`}
                      scope="col"
                      style={column.minWidth ? { minWidth: column.minWidth } : undefined}
                      className={cellClass(columnIndex, sortable ? `p-sortable-column${sorted ? " p-highlight" : ""}` : undefined)}
                      aria-sort={sorted ? (sorted === "asc" ? "ascending" : "descending") : undefined}
                    >
                      {sortable ? (
                        <a className="p-column-header-content" href={sortHref(column.prop, sorted === "asc" ? "desc" : "asc")}>
                          <span className="p-column-title">{column.label}</span>
                          <i
                            className={`p-sortable-column-icon pi ${sorted === "asc" ? "pi-sort-amount-up-alt" : sorted === "desc" ? "pi-sort-amount-down" : "pi-sort-alt"}`}
                            aria-hidden="true"
                          />
                        </a>
                      ) : (
                        <div className="p-column-header-content">
                          <span className="p-column-title">{column.label}</span>
                        </div>
                      )}
                    </th>
                  );
                })}
              </tr>
            </thead>
          ) : null}
          <tbody className="p-datatable-tbody">
            {rows.length === 0 ? (
              <tr className="p-datatable-emptymessage">
                <td colSpan={span}>{emptyMessage}</td>
              </tr>
            ) : (
              rows.map((row, index) => {
                const key = String(row[rowKey]);
                const selectable = isSelectable(row);
                return (
                  <tr key={key} role="row" className={index % 2 === 1 ? "p-row-odd" : undefined}>
                    {attributes.selection ? (
                      <td className="p-selection-column">
                        <input
                          type="checkbox"
                          name={selectionName}
                          form={selectionForm}
                          value={key}
                          defaultChecked={selected?.includes(key)}
                          disabled={!selectable}
                          aria-label={`选择第 ${indexOffset + index + 1} 行`}
                        />
                      </td>
                    ) : null}
                    {attributes.index ? <td className="sb-index-column">{indexOffset + index + 1}</td> : null}
                    {columns.map((column, columnIndex) => (
                      <td key={`${column.prop}/${column.label}`} className={cellClass(columnIndex)}>
                        {column.render ? column.render(row, index) : formatCell(column.type, row[column.prop], column.maxChars)}
                      </td>
                    ))}
                  </tr>
                );
              })
            )}
          </tbody>
          {showSummary && config.summary ? (
            <tfoot className="p-datatable-tfoot">
              <tr role="row">
                {attributes.selection ? <td /> : null}
                {attributes.index ? <td>合计</td> : null}
                {columns.map((column) => (
                  <td key={`${column.prop}/${column.label}`}>{config.summary?.[column.prop] ?? ""}</td>
                ))}
              </tr>
            </tfoot>
          ) : null}
        </table>
      </div>
    </div>
  );
}
