import type { ReactNode } from "react";
import { z } from "zod";
import { PAGE_SIZES, PaginationSchema } from "../../../contracts/envelope";

/**
 * A small server-rendered table with PrimeReact DataTable markup and links for pages, for the
 * chat records screens (no JavaScript). The shared table component replaces it when merged.
 */

export type Column<Row> = { label: string; cell: (row: Row) => ReactNode; minWidth?: string };

/** Query of a list page: filters as given, paging from the URL; bad paging falls back with a message. */
export function readListQuery<S extends z.ZodRawShape>(url: URL, filters: S) {
  const raw = Object.fromEntries(url.searchParams);
  const parsed = PaginationSchema.extend(filters).safeParse(raw);
  if (parsed.success) return { query: parsed.data, problem: null };
  const fallback = PaginationSchema.extend(filters).parse({});
  return { query: fallback, problem: "筛选或分页参数无效，已显示第一页" };
}

function ChatTable<Row>({ rows, columns, rowKey, empty }: { rows: Row[]; columns: Column<Row>[]; rowKey: (row: Row) => string; empty: string }) {
  return (
    <div className="p-datatable p-component p-datatable-gridlines sb-table">
      <div className="p-datatable-wrapper">
        <table className="p-datatable-table">
          <thead className="p-datatable-thead">
            <tr>
              {columns.map((column) => (
                <th key={column.label} scope="col" style={column.minWidth ? { minWidth: column.minWidth } : undefined}>
                  <div className="p-column-header-content">
                    <span className="p-column-title">{column.label}</span>
                  </div>
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="p-datatable-tbody">
            {rows.length === 0 ? (
              <tr className="p-datatable-emptymessage">
                <td colSpan={columns.length}>{empty}</td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr key={rowKey(row)}>
                  {columns.map((column) => (
                    <td key={column.label}>{column.cell(row)}</td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** Spec §9 pagination: total, sizes, prev, pager, next, jumper — as links and a GET form. */
function Pager({ url, total, pageNo, pageSize }: { url: URL; total: number; pageNo: number; pageSize: number }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const href = (changes: Record<string, number>) => {
    const next = new URL(url);
    for (const [key, value] of Object.entries(changes)) next.searchParams.set(key, String(value));
    return `${next.pathname}${next.search}`;
  };
  const first = Math.max(1, Math.min(pageNo - 2, pages - 4));
  const numbers = Array.from({ length: Math.min(5, pages) }, (_, i) => first + i);
  const kept = [...url.searchParams].filter(([key]) => key !== "pageNo");
  return (
    <nav className="p-paginator p-component sb-pager" aria-label="分页">
      <span className="p-paginator-current">共 {total} 条</span>
      <span className="sb-pager-sizes">
        每页
        {PAGE_SIZES.map((size) => (
          <a key={size} href={href({ pageSize: size, pageNo: 1 })} aria-current={size === pageSize ? "true" : undefined} className="sb-pager-size">
            {size}
          </a>
        ))}
        条
      </span>
      {pageNo > 1 ? (
        <a className="p-paginator-prev p-paginator-element p-link" href={href({ pageNo: pageNo - 1 })}>
          上一页
        </a>
      ) : (
        <span className="p-paginator-prev p-paginator-element p-link p-disabled" aria-disabled="true">
          上一页
        </span>
      )}
      <span className="p-paginator-pages">
        {numbers.map((n) => (
          <a key={n} href={href({ pageNo: n })} className={`p-paginator-page p-paginator-element p-link${n === pageNo ? " p-highlight" : ""}`} aria-current={n === pageNo ? "page" : undefined}>
            {n}
          </a>
        ))}
      </span>
      {pageNo < pages ? (
        <a className="p-paginator-next p-paginator-element p-link" href={href({ pageNo: pageNo + 1 })}>
          下一页
        </a>
      ) : (
        <span className="p-paginator-next p-paginator-element p-link p-disabled" aria-disabled="true">
          下一页
        </span>
      )}
      <form method="get" className="sb-pager-jump">
        {kept.map(([key, value]) => (
          <input key={key} type="hidden" name={key} value={value} />
        ))}
        <label htmlFor="sb-pager-jump">前往</label>
        <input id="sb-pager-jump" name="pageNo" type="number" min={1} max={pages} defaultValue={pageNo} className="p-inputtext p-component" />
        <button type="submit" className="p-button p-button-sm p-button-outlined">
          跳转
        </button>
      </form>
    </nav>
  );
}

/** What a list screen shows under its filters: a problem with them, the table, the pages. */
export function ListResults<Row>(props: {
  url: string;
  problem: string | null;
  page: { list: Row[]; total: number };
  query: { pageNo: number; pageSize: number };
  columns: Column<Row>[];
  rowKey: (row: Row) => string;
  empty: string;
}) {
  const { page, query } = props;
  const url = new URL(props.url);
  return (
    <>
      {props.problem ? (
        <p className="sb-message p-message-error" role="alert">
          {props.problem}
        </p>
      ) : null}
      {page.list.length === 0 && query.pageNo > 1 ? <PastTheEnd url={url} /> : null}
      <ChatTable rows={page.list} columns={props.columns} rowKey={props.rowKey} empty={props.empty} />
      <Pager url={url} total={page.total} pageNo={query.pageNo} pageSize={query.pageSize} />
    </>
  );
}

/** A page past the end is a clear message with the way back, not an empty table. */
function PastTheEnd({ url }: { url: URL }) {
  const first = new URL(url);
  first.searchParams.set("pageNo", "1");
  return (
    <p className="sb-message p-message-warn" role="status">
      没有更多记录了。<a href={`${first.pathname}${first.search}`}>返回第一页</a>
    </p>
  );
}
