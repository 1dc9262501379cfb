import { INTENT_LABELS, QC_APPEAL_STATES, QUALITY_CHECK_STATUSES, RESULT_CODES } from "#contracts/codes";
import { CodeSelect, namedChoices } from "#app/components/code-select";
import { FilterBar } from "#app/components/filters";
import type { InspectionScreenQuery } from "./query.server";
import { SCREEN } from "./queue";

const RESULTS = RESULT_CODES.map((s) => ({ code: s.code, label: `${s.code} ${s.label}` }));

/** The list's filters; a range that can match nothing marks its first field (`problem`). */
export function InspectionFilters({
  query,
  inspector,
  agents,
  problem,
}: {
  query: InspectionScreenQuery;
  inspector: boolean;
  agents: Array<{ id: number; name: string }>;
  problem: { field: "start" | "minDuration" } | null;
}) {
  const invalid = (field: "start" | "minDuration") =>
    problem?.field === field ? { "aria-invalid": true, "aria-describedby": "qc-filter-problem" } : {};
  const chosen = (value: string | number | undefined) => String(value ?? "");
  return (
    <FilterBar label="筛选质检通话" resetHref={SCREEN} size={query.size}>
      <div className="sb-field">
        <label htmlFor="qc-start">开始日期</label>
        <input id="qc-start" name="start" type="date" defaultValue={query.start ?? ""} className="p-inputtext" {...invalid("start")} />
      </div>
      <div className="sb-field">
        <label htmlFor="qc-end">结束日期</label>
        <input id="qc-end" name="end" type="date" defaultValue={query.end ?? ""} className="p-inputtext" />
      </div>
      <CodeSelect
        id="qc-status"
        name="qcStatus"
        label="质检状态"
        table={QUALITY_CHECK_STATUSES}
        defaultValue={chosen(query.qcStatus)}
        empty="全部"
      />
      <CodeSelect id="qc-intent" name="intent" label="意向标签" table={INTENT_LABELS} defaultValue={chosen(query.intent)} empty="全部" />
      <CodeSelect id="qc-result" name="callResult" label="通话结果" table={RESULTS} defaultValue={chosen(query.callResult)} empty="全部" />
      {inspector ? (
        <CodeSelect
          id="qc-agent"
          name="agentId"
          label="坐席"
          table={namedChoices(agents)}
          defaultValue={chosen(query.agentId)}
          empty="全部"
        />
      ) : null}
      <div className="sb-field">
        <label htmlFor="qc-min">最短时长（秒）</label>
        <input
          id="qc-min"
          name="minDuration"
          type="number"
          min={0}
          max={86400}
          defaultValue={query.minDuration ?? ""}
          className="p-inputtext"
          {...invalid("minDuration")}
        />
      </div>
      <div className="sb-field">
        <label htmlFor="qc-max">最长时长（秒）</label>
        <input
          id="qc-max"
          name="maxDuration"
          type="number"
          min={0}
          max={86400}
          defaultValue={query.maxDuration ?? ""}
          className="p-inputtext"
        />
      </div>
      <CodeSelect
        id="qc-appeal"
        name="appealState"
        label="申诉"
        table={QC_APPEAL_STATES}
        defaultValue={chosen(query.appealState)}
        empty="全部"
      />
      {inspector ? (
        <div className="sb-field sb-field-check">
          <input id="qc-mine" name="mine" type="checkbox" value="1" defaultChecked={query.mine === "1"} />
          <label htmlFor="qc-mine">只看我质检中的</label>
        </div>
      ) : null}
    </FilterBar>
  );
}
