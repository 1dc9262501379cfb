import type { MenuItem } from "#contracts/crm";
import { normalisePath } from "#app/lib/access";

/**
 * The sidebar menu. Links reload the document: list screens ship no JavaScript, and leaving a
 * hydrated workbench must not turn the next page into an island.
 */
export function MenuTree({ items, active }: { items: readonly MenuItem[]; active: string | null }) {
  return (
    <ul className="sb-menu" role="list">
      {items.map((item) => {
        const url = normalisePath(item.url);
        const children = item.children ?? [];
        if (children.length > 0) {
          const open = children.some((child) => normalisePath(child.url) === active);
          return (
            <li key={item.code} className="sb-menu-group">
              <details open={open || undefined}>
                <summary>
                  {item.icon ? <i className={`pi ${item.icon}`} aria-hidden="true" /> : null}
                  <span>{item.name}</span>
                </summary>
                <MenuTree items={children} active={active} />
              </details>
            </li>
          );
        }
        return (
          <li key={item.code}>
            <a href={url} className="sb-menu-link" aria-current={url === active ? "page" : undefined} data-code={item.code}>
              {item.icon ? <i className={`pi ${item.icon}`} aria-hidden="true" /> : null}
              <span>{item.name}</span>
            </a>
          </li>
        );
      })}
    </ul>
  );
}
