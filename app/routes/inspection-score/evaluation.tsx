import type { Evaluation } from "#contracts/inspection";
import { ANSWER_LABELS } from "#contracts/inspection-scoring";
import { formatDateTime } from "#app/lib/format";

/**
 * A call's stored evaluation (decision 028): each item's answer and points, the total, a failed
 * veto. A version an accepted appeal re-scored says who and why (decision 033); `earlier` is one
 * it replaced, kept as it was.
 */
export function EvaluationView({ evaluation, earlier = false }: { evaluation: Evaluation; earlier?: boolean }) {
  const title = earlier ? `原评分明细（第 ${evaluation.version} 版）` : "评分明细";
  const who = evaluation.inspectorName ?? "质检员";
  return (
    <div className="sb-qc-evaluation">
      <h3>{title}</h3>
      <p>
        评分表「{evaluation.formName}」，{who} 于 {formatDateTime(evaluation.createdAt)}
        {evaluation.version > 1 ? ` 通过申诉重新评分（第 ${evaluation.version} 版，原因：${evaluation.reason ?? "—"}）` : " 评分"}：
        <strong>{evaluation.score} 分</strong>
        {evaluation.vetoed ? <strong className="p-error">（一票否决，不合格）</strong> : null}
      </p>
      <table className="sb-monitor-table">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">评分项</th>
            <th scope="col">分值</th>
            <th scope="col">评分</th>
            <th scope="col">计入得分</th>
          </tr>
        </thead>
        <tbody>
          {evaluation.items.map((item) => (
            <tr key={item.key}>
              <td>
                {item.title}
                {item.veto ? "（一票否决）" : ""}
              </td>
              <td>{item.weight}</td>
              <td>{typeof item.value === "number" ? item.value : (ANSWER_LABELS[item.value] ?? item.value)}</td>
              <td>{item.points === null ? "不计" : item.points}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
