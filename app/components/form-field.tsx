import type { FieldMetadata, SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";

/** The PrimeReact input class, marked invalid when the field has an error. */
export const inputClass = (field: FieldMetadata<unknown>) => `p-inputtext${field.errors ? " p-invalid" : ""}`;

/** A labelled form field with its first error under it (conform metadata). */
export function Field({ field, label, children }: { field: FieldMetadata<unknown>; label: string; children: ReactNode }) {
  return (
    <div className="sb-field">
      <label htmlFor={field.id}>{label}</label>
      {children}
      {field.errors ? (
        <small id={field.errorId} className="p-error">
          {field.errors[0]}
        </small>
      ) : null}
    </div>
  );
}

/** A form's own errors (not tied to a field), announced. */
export function FormErrors({ id, errors }: { id: string; errors: string[] | undefined }) {
  return errors?.length ? (
    <div id={id} className="p-message p-message-error sb-message" role="alert">
      {errors.join("；")}
    </div>
  ) : null;
}

/** The first message of a refused submission: the form's own, else its first field's. */
export function firstError(reply: SubmissionResult<string[]>): string | null {
  return (
    reply.error?.[""]?.[0] ??
    Object.values(reply.error ?? {})
      .flat()
      .find((message): message is string => !!message) ??
    null
  );
}
