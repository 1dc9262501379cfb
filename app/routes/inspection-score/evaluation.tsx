import type { Evaluation } from "#contracts/inspection";
import { ANSWER_LABELS } from "#contracts/inspection-scoring";
import { formatDateTime } from "#app/lib/format";

/** A call's stored evaluation (decision 028): each item's answer and points, the total, a failed veto. */
export function EvaluationView({ evaluation }: { evaluation: Evaluation }) {
  return (
    <div className="sb-qc-evaluation">
      <h3>评分明细</h3>
      <p>
        评分表「{evaluation.formName}」，{evaluation.inspectorName ?? "质检员"} 于 {formatDateTime(evaluation.createdAt)} 评分：
        <strong>{evaluation.score} 分</strong>
        {evaluation.vetoed ? <strong className="p-error">（一票否决，不合格）</strong> : null}
      </p>
      <table className="sb-monitor-table">
        <caption>评分明细</caption>
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
