import { getCollectionProps, getFormProps, getInputProps, useForm } from "@conform-to/react";
import { QC_APPLY_LIMIT, QC_BULK_LIMIT, type QcBulkResult } from "#contracts/inspection";
import { CsrfInput } from "#app/components/csrf-input";
import { DataTable } from "#app/components/data-table";
import { Notice } from "#app/components/filters";
import { inputClass } from "#app/components/form-field";
import { refusalOf, useIntentForm } from "#app/components/intent-form";
import { SCREEN } from "./queue";

/**
 * An inspector's way in: a number of waiting calls taken, and their own queue. `result` is the
 * action's answer: a refused count comes back as typed (the screen tells why above the list).
 */
export function ApplyForm({ result }: { result: unknown }) {
  const [form, fields] = useIntentForm("apply", result, { count: "10" });
  return (
    <div className="sb-inline-forms">
      <form method="post" {...getFormProps(form)} className="sb-inline-forms" aria-label="领取质检">
        <CsrfInput />
        <input type="hidden" name="intent" value="apply" />
        <div className="sb-field">
          <label htmlFor={fields.count.id}>领取数量（最多{QC_APPLY_LIMIT}条）</label>
          <input
            {...getInputProps(fields.count, { type: "number" })}
            min={1}
            max={QC_APPLY_LIMIT}
            required
            className={inputClass(fields.count)}
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

/** A bulk form's refusal: one of its three intents (a refused 领取 count is the apply form's). */
export const bulkRefusal = (result: unknown) => {
  const refusal = refusalOf(result);
  return refusal?.initialValue?.intent === "apply" ? undefined : refusal;
};

/**
 * What can be done with the calls ticked in the list (their boxes, `ids`, belong to this form by
 * its id): taken, reallotted to inspectors, recovered. A refusal keeps the inspectors and reason.
 */
export function BulkForm({ inspectors, result }: { inspectors: Array<{ id: number; name: string }>; result: unknown }) {
  const [form, fields] = useForm<Record<string, string | string[]>>({ id: "qc-bulk", lastResult: bulkRefusal(result) });
  const boxes = getCollectionProps(fields.inspectorIds, { type: "checkbox", options: inspectors.map((i) => String(i.id)) });
  return (
    <form method="post" {...getFormProps(form)} className="sb-inline-forms" aria-label="批量操作所选通话">
      <CsrfInput />
      <fieldset className="sb-fieldset">
        <legend>改派给质检员（平均分配）</legend>
        {inspectors.map((i, n) => {
          const { key, ...box } = boxes[n]!;
          return (
            <label key={key} className="sb-check">
              <input {...box} /> {i.name}
            </label>
          );
        })}
      </fieldset>
      <div className="sb-field">
        <label htmlFor={fields.reason.id}>原因（选填）</label>
        <input {...getInputProps(fields.reason, { type: "text" })} maxLength={200} className={inputClass(fields.reason)} />
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
