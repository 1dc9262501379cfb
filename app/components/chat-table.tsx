import { type z } from "zod";
import { PaginationSchema } from "#contracts/envelope";
import { DataTable, type Column } from "#app/components/data-table";
import { Paginator } from "#app/components/paginator";

export type { Column };

/**
 * Paging of the chat records screens, in the URL as on every list (`page`, `size`): bad values
 * fall back to the first page with a message rather than an error.
 */
export function readListQuery<S extends z.ZodRawShape>(url: URL, filters: S) {
  const params = Object.fromEntries(url.searchParams);
  const raw = { ...params, pageNo: params.page, pageSize: params.size };
  const schema = PaginationSchema.extend(filters);
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { query: parsed.data, problem: null };
  return { query: schema.parse({}), problem: "筛选或分页参数无效，已显示第一页" };
}

/** What a chat records screen shows under its filters: a problem with them, the shared table, the pages. */
export function ListResults<Row>(props: {
  url: string;
  caption: string;
  problem: string | null;
  page: { list: Row[]; total: number };
  query: { pageNo: number; pageSize: number };
  columns: Column<Row>[];
  rowKey: keyof Row & string;
  empty: string;
}) {
  const { page, query } = props;
  const url = new URL(props.url);
  const first = new URL(url);
  first.searchParams.delete("page");
  return (
    <>
      {props.problem ? (
        <p className="sb-message p-message-error" role="alert">
          {props.problem}
        </p>
      ) : null}
      {page.list.length === 0 && query.pageNo > 1 ? (
        <p className="sb-message p-message-warn" role="status">
          没有更多记录了。<a href={`${first.pathname}${first.search}`}>返回第一页</a>
        </p>
      ) : null}
      <DataTable
        caption={props.caption}
        rowKey={props.rowKey}
        emptyMessage={props.empty}
        indexOffset={(query.pageNo - 1) * query.pageSize}
        config={{ list: page.list, total: page.total, eleItem: props.columns }}
      />
      <Paginator total={page.total} pageNo={query.pageNo} pageSize={query.pageSize} pathname={url.pathname} search={url.search} />
    </>
  );
}
