import { data } from "@remix-run/node";
import type { z } from "zod";
import { KNOWLEDGE_STATES, labelOf } from "#contracts/codes";
import type { KnowledgeImportResult } from "#contracts/knowledge";
import { attempt, type rejectForm } from "#app/server/forms.server";
import { pagination } from "#app/server/page-query.server";
import { redirectWithToast } from "#app/server/toast.server";
import {
  createKnowledgeGroup,
  deleteKnowledgeGroup,
  deleteKnowledgeNodes,
  listKnowledgeGaps,
  listKnowledgeGroups,
  listKnowledgeNodes,
  renameKnowledgeGroup,
  saveKnowledgeNode,
  setKnowledgeNodeState,
} from "#app/services/knowledge.server";
import type { Caller } from "#app/services/upstream.server";
import { SCREEN, screenHref } from "./href";
import type { KnowledgeScreenQuery } from "./query.server";
import type { INTENT_SCHEMAS } from "./schema";

/** A deletion's first post answers this; the second post (`confirmed=1`) acts. */
export type Confirm = {
  intent: "group.delete" | "node.delete" | "node.batchDelete";
  fields: Record<string, string | string[]>;
  message: string;
};

type Input<I extends keyof typeof INTENT_SCHEMAS> = z.infer<(typeof INTENT_SCHEMAS)[I]>;
/** What every change needs: who posts, the screen's query and its address (to go back to), the refusal of this form. */
export type Posted = {
  caller: Caller;
  current: Partial<KnowledgeScreenQuery>;
  back: string;
  refuse: (errors: Parameters<typeof rejectForm>[1], status?: number) => ReturnType<typeof rejectForm>;
};

/** The page: the groups, a page of knowledge, the searches that found nothing, the node edited. */
export async function loadKnowledge(caller: Caller, query: KnowledgeScreenQuery) {
  const [groups, nodes, gaps] = await Promise.all([
    listKnowledgeGroups(caller),
    listKnowledgeNodes(caller, { ...pagination(query), groupId: query.group, keyword: query.keyword, state: query.state }),
    listKnowledgeGaps(caller, { pageNo: 1, pageSize: 20 }),
  ]);
  const group = groups.find((g) => g.id === query.group) ?? null;
  const editing = typeof query.edit === "number" ? (nodes.list.find((n) => n.id === query.edit) ?? null) : null;
  return { query, groups, group, nodes, gaps, editing };
}

/** The groups: one created, renamed, or deleted after a confirmation. */
export async function changeGroup({ caller, back, refuse }: Posted, input: Input<"group.create" | "group.rename" | "group.delete">) {
  switch (input.intent) {
    case "group.create": {
      const done = await attempt(() => createKnowledgeGroup(caller, input.name));
      if (!done.ok) return refuse({ fieldErrors: { name: [done.message] } }, done.status);
      return redirectWithToast(screenHref({}, { group: done.value.id }), `分组「${done.value.name}」已创建`);
    }
    case "group.rename": {
      const done = await attempt(() => renameKnowledgeGroup(caller, input.groupId, input.name));
      if (!done.ok) return refuse({ fieldErrors: { name: [done.message] } }, done.status);
      return redirectWithToast(back, `分组已重命名为「${done.value.name}」`);
    }
    case "group.delete": {
      if (!input.confirmed) {
        return data({
          confirm: {
            intent: input.intent,
            fields: { intent: input.intent, groupId: String(input.groupId) },
            message: "",
          } satisfies Confirm,
        });
      }
      const done = await attempt(() => deleteKnowledgeGroup(caller, input.groupId));
      if (!done.ok) return refuse({ formErrors: [done.message] }, done.status);
      return redirectWithToast(SCREEN, "分组已删除");
    }
  }
}

/** The knowledge itself: a node saved, enabled or disabled, one or those ticked deleted after a confirmation. */
export async function changeNodes(
  { caller, current, back, refuse }: Posted,
  input: Input<"node.save" | "node.state" | "node.delete" | "node.batchDelete">,
) {
  switch (input.intent) {
    case "node.save": {
      const { id, intent: _intent, ...node } = input;
      const done = await attempt(() => saveKnowledgeNode(caller, id ?? null, node));
      if (!done.ok) return refuse({ formErrors: [done.message] }, done.status);
      return redirectWithToast(
        screenHref(current, { edit: undefined, group: current.group }),
        id ? "知识已保存" : `知识「${done.value.question}」已创建`,
      );
    }
    case "node.state": {
      const done = await attempt(() => setKnowledgeNodeState(caller, input.id, input.state));
      if (!done.ok) return refuse({ formErrors: [done.message] }, done.status);
      return redirectWithToast(back, `知识「${done.value.question}」已${labelOf(KNOWLEDGE_STATES, done.value.state)}`);
    }
    case "node.delete":
    case "node.batchDelete": {
      const ids = input.intent === "node.delete" ? [input.id] : input.ids;
      if (!input.confirmed) {
        const fields: Record<string, string | string[]> =
          input.intent === "node.delete"
            ? { intent: input.intent, id: String(input.id), question: input.question ?? "" }
            : { intent: input.intent, ids: ids.map(String) };
        const message =
          input.intent === "node.delete" ? `确定删除知识「${input.question ?? input.id}」吗？` : `确定删除选中的 ${ids.length} 条知识吗？`;
        return data({ confirm: { intent: input.intent, fields, message } satisfies Confirm });
      }
      const done = await attempt(() => deleteKnowledgeNodes(caller, ids));
      if (!done.ok) return refuse({ formErrors: [done.message] }, done.status);
      return redirectWithToast(back, `已删除 ${done.value} 条知识`);
    }
  }
}

/** The import's result: the file went on to the platform as it arrived (`requireUploadAccess`), once its group was valid. */
export function importResult(
  { refuse }: Posted,
  input: Input<"node.import">,
  imported: Awaited<ReturnType<typeof attempt<KnowledgeImportResult>>> | undefined,
) {
  if (!imported) return refuse({ formErrors: ["请选择要导入的 CSV 或 XLSX 文件"] });
  if (!imported.ok) return refuse({ formErrors: [imported.message] }, imported.status);
  return data({ imported: { ...imported.value, groupId: input.groupId } });
}
