import { useState, type FormEvent } from "react";
import { CALL_ORIGIN_LABELS, CALL_RESULTS, labelOf } from "#contracts/codes";
import { formatTime, maskPhone } from "#app/lib/format";
import { readJson } from "#app/client/island";
import { PHONE_ENDPOINT } from "./types";
import type { WorkbenchData } from "./types";

const seconds = (ms: number) => `${Math.floor(ms / 60_000)}分${Math.round((ms % 60_000) / 1000)}秒`;

/**
 * The agent's calls today, newest first, with the result recorded for each, and a dial-back that
 * names the call (the page holds its number masked; the server dials the call's own).
 */
export function TodayCalls({
  calls,
  canDial,
  dialBack,
}: {
  calls: WorkbenchData["today"];
  canDial: boolean;
  dialBack: (ctiCallId: string) => Promise<boolean>;
}) {
  if (calls.length === 0) return <p>今天还没有通话</p>;
  return (
    <div className="p-datatable p-component">
      <table className="p-datatable-table" aria-label="今日通话">
        <thead className="p-datatable-thead">
          <tr>
            <th>时间</th>
            <th>电话</th>
            <th>类型</th>
            <th>通话时长</th>
            <th>通话结果</th>
            <th>操作</th>
          </tr>
        </thead>
        <tbody className="p-datatable-tbody">
          {calls.map((c) => (
            <tr key={c.ctiCallId}>
              <td>{formatTime(Date.parse(c.callTime))}</td>
              <td>{maskPhone(c.phone)}</td>
              <td>{labelOf(CALL_ORIGIN_LABELS, c.origin)}</td>
              <td>{c.isAnswer ? seconds(c.callDuration) : "未接通"}</td>
              <td>{c.conclusion === null ? "未填写" : labelOf(CALL_RESULTS, c.conclusion)}</td>
              <td>
                <button
                  type="button"
                  className="p-button p-button-text p-button-sm"
                  disabled={!canDial}
                  aria-label={`回拨 ${c.phone}`}
                  onClick={() => void dialBack(c.ctiCallId)}
                >
                  回拨
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function KnowledgeLookup() {
  const [keyword, setKeyword] = useState("");
  const [nodes, setNodes] = useState<Array<{ id: number; title: string; content: string; groupName: string }> | null>(null);
  const search = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await readJson<{ knowledge?: typeof nodes }>(PHONE_ENDPOINT, { keyword });
    setNodes(answer?.knowledge ?? []);
  };
  return (
    <section className="sb-wb-card" aria-label="知识库查询">
      <form onSubmit={search} className="sb-phonebar-actions">
        <label htmlFor="knowledge-keyword">关键词</label>
        <input
          id="knowledge-keyword"
          className="p-inputtext p-component p-inputtext-sm"
          value={keyword}
          maxLength={50}
          onChange={(e) => setKeyword(e.target.value)}
        />
        <button type="submit" className="p-button p-button-sm">
          查询
        </button>
      </form>
      {nodes === null ? null : nodes.length === 0 ? (
        <p>没有找到相关知识</p>
      ) : (
        <ul>
          {nodes.map((n) => (
            <li key={n.id}>
              <strong>{n.title}</strong>（{n.groupName}）：{n.content}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
