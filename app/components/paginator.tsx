import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from "#contracts/paging";
import { withParams } from "#app/lib/list-url";

/**
 * Pagination of spec §9 with PrimeReact's paginator markup: total, sizes, prev, pager, next,
 * jumper. Every page and every page size is a link (the sizes drop down from a <details>), so
 * choosing one takes effect at once, with JavaScript or without; the jumper is a GET form that
 * keeps the size. Prev and next carry a keyset cursor (the first/last row of this page) so the
 * platform seeks instead of counting rows; numbered pages and the jumper use page numbers.
 */
export type PaginatorProps = {
  total: number;
  /** The total is an estimate (the platform does not count very large results exactly). */
  estimated?: boolean;
  pageNo: number;
  pageSize: number;
  pathname: string;
  /** The current URL's search, whose other parameters every link and the form keep. */
  search: string;
  /** Keyset cursors of this page's first and last rows. */
  cursors?: { first: string; last: string };
  /** How many numbered links around the current page. */
  window?: number;
};

export const pageCount = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));

/** The numbered pages to show: a window around the current one, always the first and the last. */
export function pagerPages(current: number, pages: number, window = 5): Array<number | "gap"> {
  const half = Math.floor(window / 2);
  let from = Math.max(1, current - half);
  const to = Math.min(pages, from + window - 1);
  from = Math.max(1, to - window + 1);
  const out: Array<number | "gap"> = [];
  if (from > 1) out.push(1);
  if (from > 2) out.push("gap");
  for (let n = from; n <= to; n++) out.push(n);
  if (to < pages - 1) out.push("gap");
  if (to < pages) out.push(pages);
  return out;
}

export function Paginator({ total, estimated, pageNo, pageSize, pathname, search, cursors, window = 5 }: PaginatorProps) {
  const pages = pageCount(total, pageSize);
  const href = (page: number, cursor?: Record<string, string>) => {
    const url = withParams(pathname, search, { page: page === 1 ? undefined : page });
    if (!cursor) return url;
    return `${url}${url.includes("?") ? "&" : "?"}${new URLSearchParams(cursor).toString()}`;
  };
  const kept = [...new URLSearchParams(search)].filter(([key]) => !["page", "size", "after", "before"].includes(key));
  // A new size starts again at page 1 (the rows before the current page would shift).
  const sizeHref = (size: number) => withParams(pathname, search, { page: undefined, size: size === DEFAULT_PAGE_SIZE ? undefined : size });
  const hasPrev = pageNo > 1 && pageNo <= pages;
  const hasNext = pageNo < pages;
  const nav = (enabled: boolean, url: string, label: string, icon: string, className: string) =>
    enabled ? (
      <a className={`${className} p-paginator-element p-link`} href={url} aria-label={label}>
        <i className={`p-paginator-icon pi ${icon}`} aria-hidden="true" />
      </a>
    ) : (
      <span className={`${className} p-paginator-element p-link p-disabled`} role="link" aria-label={label} aria-disabled="true">
        <i className={`p-paginator-icon pi ${icon}`} aria-hidden="true" />
      </span>
    );

  return (
    <form method="get" action={pathname} className="p-paginator p-component sb-paginator" aria-label="分页">
      {kept.map(([key, value]) => (
        <input key={`${key}=${value}`} type="hidden" name={key} value={value} />
      ))}
      <span className="p-paginator-current">{estimated ? `共约 ${total} 条` : `共 ${total} 条`}</span>
      <details className="sb-paginator-sizes">
        <summary className="p-dropdown p-component" aria-label={`每页条数：${pageSize}条/页`}>
          <span className="p-dropdown-label">{pageSize}条/页</span>
          <i className="pi pi-chevron-down" aria-hidden="true" />
        </summary>
        <ul className="p-dropdown-items">
          {PAGE_SIZES.map((size) => (
            <li key={size}>
              <a
                href={sizeHref(size)}
                className={`p-dropdown-item${size === pageSize ? " p-highlight" : ""}`}
                aria-current={size === pageSize ? "true" : undefined}
              >
                {size}条/页
              </a>
            </li>
          ))}
        </ul>
      </details>
      {nav(
        hasPrev,
        cursors && pageNo <= pages ? href(pageNo - 1, { before: cursors.first }) : href(Math.min(pageNo - 1, pages)),
        "上一页",
        "pi-angle-left",
        "p-paginator-prev",
      )}
      <span className="p-paginator-pages">
        {pagerPages(Math.min(pageNo, pages), pages, window).map((page, i) =>
          page === "gap" ? (
            <span key={`gap-${i}`} className="p-paginator-page p-paginator-element sb-paginator-gap" aria-hidden="true">
              …
            </span>
          ) : (
            <a
              key={page}
              href={href(page)}
              className={`p-paginator-page p-paginator-element p-link${page === pageNo ? " p-highlight" : ""}`}
              aria-label={`第 ${page} 页`}
              aria-current={page === pageNo ? "page" : undefined}
            >
              {page}
            </a>
          ),
        )}
      </span>
      {nav(hasNext, cursors ? href(pageNo + 1, { after: cursors.last }) : href(pageNo + 1), "下一页", "pi-angle-right", "p-paginator-next")}
      <span className="p-paginator-jtp">
        {pageSize === DEFAULT_PAGE_SIZE ? null : <input type="hidden" name="size" value={pageSize} />}
        <label htmlFor="sb-jump-page">前往</label>
        <input
          id="sb-jump-page"
          name="page"
          type="number"
          min={1}
          max={pages}
          inputMode="numeric"
          className="p-inputtext p-component sb-paginator-jump"
          placeholder={String(pageNo)}
        />
        <span aria-hidden="true">页</span>
        <button type="submit" className="p-button p-button-sm p-button-outlined">
          跳转
        </button>
      </span>
    </form>
  );
}
