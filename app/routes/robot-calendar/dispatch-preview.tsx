import { WEEKDAYS, labelOf } from "#contracts/codes";
import { DISPATCH_DAYS, type TaskDispatch } from "#contracts/robot-resources";
import { CodeSelect, namedChoices } from "#app/components/code-select";
import { DataTable } from "#app/components/data-table";

/** A campaign's calls over the next days as the calendars allow them (GET /task/api/dispatch/{id}). */
export function DispatchPreview({
  campaigns,
  chosen,
  dispatch,
}: {
  campaigns: Array<{ id: number; name: string }>;
  chosen: number | undefined;
  dispatch: TaskDispatch | null;
}) {
  return (
    <section aria-labelledby="dispatch-title" className="sb-section">
      <h2 id="dispatch-title" className="sb-section-title">
        拨打时段预览（未来{DISPATCH_DAYS}天）
      </h2>
      <form method="get" className="sb-filters" aria-label="按外呼活动预览拨打时段">
        <CodeSelect
          id="dispatch-campaign"
          name="campaign"
          label="外呼活动"
          table={namedChoices(campaigns)}
          defaultValue={chosen === undefined ? "" : String(chosen)}
          empty="请选择"
          required
        />
        <div className="sb-filter-actions">
          <button type="submit" className="p-button">
            预览
          </button>
        </div>
      </form>
      {dispatch ? (
        <DataTable<TaskDispatch["days"][number]>
          caption={`「${dispatch.campaignName}」的拨打时段`}
          rowKey="date"
          emptyMessage="暂无"
          config={{
            list: dispatch.days,
            total: dispatch.days.length,
            eleItem: [
              { prop: "date", label: "日期" },
              { prop: "weekday", label: "星期", render: (d) => labelOf(WEEKDAYS, d.weekday) },
              {
                prop: "windows",
                label: "机器人拨打时段",
                render: (d) => (d.windows.length ? d.windows.map((w) => `${w.start}–${w.end}`).join("，") : `不拨打（${d.reason ?? ""}）`),
              },
            ],
          }}
        />
      ) : null}
    </section>
  );
}
