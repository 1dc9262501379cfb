import type { KnowledgeGap } from "#contracts/knowledge";
import { DataTable } from "#app/components/data-table";

/** The keywords agents searched for without a result, each a link to a new node asking it. */
export function KnowledgeGaps({ gaps, newHref }: { gaps: { list: KnowledgeGap[]; total: number }; newHref: string }) {
  return (
    <section aria-labelledby="kb-gaps-title" className="sb-section">
      <h2 id="kb-gaps-title" className="sb-section-title">
        无结果搜索
      </h2>
      <p className="sb-hint">坐席查询知识或输入“/”搜索快捷回复时没有找到结果的关键词，按次数排列；补充了相应知识后，关键词自动移出此表。</p>
      <DataTable
        caption="无结果搜索"
        rowKey="keyword"
        emptyMessage="暂无无结果的搜索"
        config={{
          list: gaps.list,
          total: gaps.total,
          eleItem: [
            { prop: "keyword", label: "关键词" },
            { prop: "times", label: "搜索次数" },
            { prop: "lastAt", label: "最近搜索", type: "datetime", minWidth: 150 },
            {
              prop: "keyword",
              label: "补充知识",
              render: (g) => <a href={`${newHref}&question=${encodeURIComponent(g.keyword)}`}>新建知识</a>,
            },
          ],
        }}
      />
    </section>
  );
}
