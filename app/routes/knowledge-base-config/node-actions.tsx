import { KNOWLEDGE_STATES, labelOf } from "#contracts/codes";
import type { KnowledgeNode } from "#contracts/knowledge";
import { PostButton } from "#app/components/row-actions";
import { screenHref } from "./href";
import type { KnowledgeScreenQuery } from "./query.server";

/** A node's row actions: edit, enable or disable, delete. */
export function NodeActions({ node, query }: { node: KnowledgeNode; query: KnowledgeScreenQuery }) {
  const next = node.state === 1 ? 0 : 1;
  const label = labelOf(KNOWLEDGE_STATES, next);
  return (
    <div className="sb-row-actions">
      <a href={screenHref(query, { edit: node.id, page: query.page > 1 ? query.page : undefined })} aria-label={`编辑「${node.question}」`}>
        编辑
      </a>
      <PostButton fields={{ intent: "node.state", id: node.id, state: next }} label={label} ariaLabel={`${label}「${node.question}」`} />
      <PostButton
        fields={{ intent: "node.delete", id: node.id, question: node.question }}
        label="删除"
        ariaLabel={`删除「${node.question}」`}
        danger
      />
    </div>
  );
}
