import { QC_APPLY_LIMIT, QC_BULK_LIMIT, type QcBulkResult } from "#contracts/inspection";
import { CsrfInput } from "#app/components/csrf-input";
import { DataTable } from "#app/components/data-table";
import { Notice } from "#app/components/filters";
import { SCREEN } from "./queue";

/** An inspector's way in: a number of waiting calls taken, and their own queue. */
export function ApplyForm({ count }: { count: string }) {
  return (
    <div className="sb-inline-forms">
      <form method="post" className="sb-inline-forms" aria-label="领取质检">
        <CsrfInput />
        <input type="hidden" name="intent" value="apply" />
        <div className="sb-field">
          <label htmlFor="qc-count">领取数量（最多{QC_APPLY_LIMIT}条）</label>
          <input
            id="qc-count"
            name="count"
            type="number"
            min={1}
            max={QC_APPLY_LIMIT}
            required
            defaultValue={count}
            className="p-inputtext"
          />
        </div>
        <button type="submit" className="p-button">
          领取待质检
        </button>
      </form>
      <a className="p-button p-button-outlined" href={`${SCREEN}?mine=1`}>
        我的质检队列
      </a>
    </div>
  );
}

/** What can be done with the calls ticked in the list: taken, reallotted to inspectors, recovered. */
export function BulkForm({
  inspectors,
  typedInspectors,
  typedReason,
}: {
  inspectors: Array<{ id: number; name: string }>;
  typedInspectors: string[];
  typedReason: string;
}) {
  return (
    <form method="post" id="qc-bulk" className="sb-inline-forms" aria-label="批量操作所选通话">
      <CsrfInput />
      <fieldset className="sb-fieldset">
        <legend>改派给质检员（平均分配）</legend>
        {inspectors.map((i) => (
          <label key={i.id} className="sb-check">
            <input type="checkbox" name="inspectorIds" value={i.id} defaultChecked={typedInspectors.includes(String(i.id))} /> {i.name}
          </label>
        ))}
      </fieldset>
      <div className="sb-field">
        <label htmlFor="qc-reason">原因（选填）</label>
        <input id="qc-reason" name="reason" maxLength={200} defaultValue={typedReason} className="p-inputtext" />
      </div>
      <button type="submit" name="intent" value="order" className="p-button p-button-outlined">
        领取所选
      </button>
      <button type="submit" name="intent" value="reallot" className="p-button p-button-outlined">
        改派所选
      </button>
      <button type="submit" name="intent" value="recovery" className="p-button p-button-danger p-button-outlined">
        收回所选
      </button>
      <span className="sb-hint">一次最多 {QC_BULK_LIMIT} 条</span>
    </form>
  );
}

/** A bulk change's results, item by item: how many went through, and why the others did not. */
export function BulkResults({ bulk }: { bulk: QcBulkResult & { what: string } }) {
  const failed = bulk.results.filter((r) => !r.ok);
  return (
    <Notice tone={failed.length > 0 ? "info" : "success"}>
      {bulk.what}完成：成功 {bulk.done} 条，失败 {bulk.failed} 条。
      {failed.length > 0 ? (
        <DataTable
          caption={`${bulk.what}失败的通话`}
          rowKey="callId"
          config={{
            list: failed,
            total: failed.length,
            eleItem: [
              { prop: "callId", label: "通话编号" },
              { prop: "message", label: "原因" },
            ],
          }}
        />
      ) : null}
    </Notice>
  );
}
