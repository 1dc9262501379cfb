import type { ReactNode } from "react";
import { labelOf, toneOf, type CodeTable } from "../../contracts/codes";

/**
 * A small server-rendered table in PrimeReact DataTable markup, with pagination as links. The
 * outbound screens use it until the shared table component of the call records work replaces it.
 */
export type Column<T> = { header: string; cell: (row: T) => ReactNode; key?: string };

export function OutboundTable<T>({ caption, columns, rows, rowKey, empty = "暂无数据" }: { caption: string; columns: Column<T>[]; rows: T[]; rowKey: (row: T) => string | number; empty?: string }) {
  return (
    <div className="p-datatable p-component p-datatable-gridlines p-datatable-sm">
      <div className="p-datatable-wrapper">
        <table className="p-datatable-table" aria-label={caption}>
          <thead className="p-datatable-thead">
            <tr>
              {columns.map((column) => (
                <th key={column.key ?? column.header} scope="col">
                  <span className="p-column-title">{column.header}</span>
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
                    <td key={column.key ?? column.header}>{column.cell(row)}</td>
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

/** Page links that keep the other query parameters (filters) of the current URL. */
export function PageLinks({ total, pageNo, pageSize, search, label = "分页" }: { total: number; pageNo: number; pageSize: number; search: string; label?: string }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const href = (page: number) => {
    const params = new URLSearchParams(search);
    params.set("pageNo", String(page));
    return `?${params.toString()}`;
  };
  return (
    <nav className="p-paginator p-component" aria-label={label}>
      <span className="p-paginator-current">共 {total} 条</span>
      {pageNo > 1 ? (
        <a className="p-paginator-prev p-paginator-element p-link" href={href(pageNo - 1)}>
          上一页
        </a>
      ) : null}
      <span className="p-paginator-pages">
        第 {Math.min(pageNo, pages)} / {pages} 页
      </span>
      {pageNo < pages ? (
        <a className="p-paginator-next p-paginator-element p-link" href={href(pageNo + 1)}>
          下一页
        </a>
      ) : null}
    </nav>
  );
}

const TAG_SEVERITY: Record<string, string> = { success: "p-tag-success", danger: "p-tag-danger", warning: "p-tag-warning", info: "p-tag-info", none: "" };

/** A code shown as its Chinese label in a PrimeReact tag coloured by its tone. */
export function CodeTag<C extends string | number>({ table, code }: { table: CodeTable<C>; code: C | null | undefined }) {
  return <span className={`p-tag p-component ${TAG_SEVERITY[toneOf(table, code)]}`}>{labelOf(table, code)}</span>;
}

export const formatTime = (iso: string | null) => (iso ? new Date(iso).toLocaleString("zh-CN", { timeZone: "Asia/Shanghai", hour12: false }) : "—");
