import type { FlowDiffChange } from "#contracts/robot";

const KIND = { added: "新增", removed: "删除", changed: "修改" } as const;

/** What a version changes against the version in service, node by node (the reviewer reads it before publishing). */
export function FlowDiff({ against, changes, caption }: { against: string; changes: FlowDiffChange[]; caption: string }) {
  if (changes.length === 0) return <p className="sb-hint">与使用中的版本 {against} 相比没有变化。</p>;
  return (
    <table className="sb-flow-diff">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">节点</th>
          <th scope="col">变化</th>
          <th scope="col">内容</th>
          <th scope="col">使用中（{against}）</th>
          <th scope="col">本版本</th>
        </tr>
      </thead>
      <tbody>
        {changes.flatMap((change) =>
          change.fields.map((field, i) => (
            <tr key={`${change.nodeKey}-${field.label}`} className={`sb-diff-${change.kind}`}>
              {i === 0 ? (
                <>
                  <th scope="row" rowSpan={change.fields.length}>
                    {change.nodeName}（{change.nodeKey}）
                  </th>
                  <td rowSpan={change.fields.length}>{KIND[change.kind]}</td>
                </>
              ) : null}
              <td>{field.label}</td>
              <td>{field.before ? <del>{field.before}</del> : "—"}</td>
              <td>{field.after ? <ins>{field.after}</ins> : "—"}</td>
            </tr>
          )),
        )}
      </tbody>
    </table>
  );
}
