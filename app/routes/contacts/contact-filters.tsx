import type { CustomerProperty } from "#contracts/customers";
import { CodeSelect } from "#app/components/code-select";
import { FilterBar } from "#app/components/filters";
import type { ContactsQuery } from "./schema";
import { optionTable } from "./contact-form";
import { SCREEN, valueFilters } from "./values";

/** The search: a name or phone, and the properties' values (`v<id>`) folded away. */
export function ContactFilters({ query, properties, admin }: { query: ContactsQuery; properties: CustomerProperty[]; admin: boolean }) {
  const filters = valueFilters(query);
  return (
    <FilterBar label="搜索联系人" search resetHref={query.group ? `${SCREEN}?group=${query.group}` : SCREEN}>
      {query.group ? <input type="hidden" name="group" value={query.group} /> : null}
      <div className="sb-field">
        <label htmlFor="contacts-keyword">姓名或手机号</label>
        <input
          id="contacts-keyword"
          name="keyword"
          type="search"
          maxLength={30}
          defaultValue={query.keyword ?? ""}
          className="p-inputtext"
        />
      </div>
      {/* The properties' filters fold away: however many a tenant defines, the bar keeps its size;
          it opens when one of them is in use. */}
      <details className="sb-filters-more" open={Object.values(filters).some(Boolean)}>
        <summary>按客户属性筛选</summary>
        <div className="sb-filters-more-fields">
          {properties.length === 0 ? (
            <p className="sb-hint">
              还没有客户属性
              {admin ? (
                <>
                  ，可在<a href="/customerProperty">客户属性</a>中添加
                </>
              ) : null}
              。
            </p>
          ) : null}
          {properties.map((p) =>
            p.type === "single" || p.type === "multi" ? (
              <CodeSelect
                key={p.id}
                id={`filter-v${p.id}`}
                name={`v${p.id}`}
                label={p.name}
                table={optionTable(p.options)}
                defaultValue={filters[String(p.id)] ?? ""}
                empty="全部"
              />
            ) : (
              <div className="sb-field" key={p.id}>
                <label htmlFor={`filter-v${p.id}`}>{p.name}</label>
                <input
                  id={`filter-v${p.id}`}
                  name={`v${p.id}`}
                  maxLength={200}
                  defaultValue={filters[String(p.id)] ?? ""}
                  className="p-inputtext"
                />
              </div>
            ),
          )}
        </div>
      </details>
    </FilterBar>
  );
}
