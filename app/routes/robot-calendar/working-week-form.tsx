import { getFormProps, getInputProps } from "@conform-to/react";
import type { z } from "zod";
import { WEEKDAYS, labelOf } from "#contracts/codes";
import type { WorkingDay } from "#contracts/robot-resources";
import { CsrfInput } from "#app/components/csrf-input";
import { FormErrors, inputClass } from "#app/components/form-field";
import { useIntentsForm } from "#app/components/intent-form";
import type { WorkingFormSchema } from "./schema";

/** The hours robots call on each day of the week: a row a day; a refused week comes back as typed. */
export function WorkingWeekForm({ days, result }: { days: WorkingDay[]; result: unknown }) {
  const [form, fields] = useIntentsForm<z.input<typeof WorkingFormSchema>>(["working.save"], result, {
    days: days.map((d) => ({ ...d, weekday: String(d.weekday), enabled: d.enabled ? "on" : undefined })),
  });
  const list = fields.days.getFieldList();
  return (
    <section aria-labelledby="working-title" className="sb-section">
      <h2 id="working-title" className="sb-section-title">
        工作时间（机器人只在这些时间拨打）
      </h2>
      <form method="post" {...getFormProps(form)}>
        <CsrfInput />
        <input type="hidden" name="intent" value="working.save" />
        <FormErrors id={form.errorId} errors={form.errors ?? fields.days.errors} />
        <div className="p-datatable p-component">
          <div className="p-datatable-wrapper">
            <table className="p-datatable-table" aria-label="每周工作时间">
              <thead className="p-datatable-thead">
                <tr>
                  <th scope="col">星期</th>
                  <th scope="col">拨打</th>
                  <th scope="col">开始时间</th>
                  <th scope="col">结束时间</th>
                </tr>
              </thead>
              <tbody className="p-datatable-tbody">
                {list.map((item, i) => {
                  const day = item.getFieldset();
                  const weekday = labelOf(WEEKDAYS, Number(day.weekday.initialValue ?? i + 1));
                  const error = day.start.errors?.[0] ?? day.end.errors?.[0];
                  return (
                    <tr key={item.key}>
                      <th scope="row">
                        {weekday}
                        <input {...getInputProps(day.weekday, { type: "hidden" })} />
                      </th>
                      <td>
                        <input
                          {...getInputProps(day.enabled, { type: "checkbox" })}
                          aria-label={`${weekday}拨打`}
                          className="p-checkbox-input-native"
                        />
                      </td>
                      <td>
                        <input
                          {...getInputProps(day.start, { type: "time" })}
                          required
                          aria-label={`${weekday}开始时间`}
                          className={inputClass(day.start)}
                        />
                      </td>
                      <td>
                        <input
                          {...getInputProps(day.end, { type: "time" })}
                          required
                          aria-label={`${weekday}结束时间`}
                          className={inputClass(day.end)}
                        />
                        {error ? (
                          <small id={day.end.errorId} className="p-error">
                            {error}
                          </small>
                        ) : null}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </div>
        <div className="sb-form-actions">
          <button type="submit" className="p-button">
            保存工作时间
          </button>
        </div>
      </form>
    </section>
  );
}
