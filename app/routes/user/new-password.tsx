import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { PasswordRules } from "#app/components/account-card";
import { Field, inputClass } from "#app/components/form-field";

/**
 * A new password as the sign-up, reset and change forms ask for it: the password with its rules
 * and, where asked, typed again (`withConfirmedPassword`). Never sent back to the page (each
 * action's `hideFields`).
 */

export function NewPasswordFields({
  password,
  confirm,
  label = "新密码",
}: {
  password: FieldMetadata<unknown>;
  confirm?: FieldMetadata<unknown>;
  label?: string;
}) {
  const rulesId = `${password.id}-rules`;
  return (
    <>
      <Field field={password} label={label}>
        <input
          {...getInputProps(password, { type: "password" })}
          className={inputClass(password)}
          autoComplete="new-password"
          aria-describedby={password.errors ? `${password.errorId} ${rulesId}` : rulesId}
        />
      </Field>
      <PasswordRules id={rulesId} />
      {confirm ? (
        <Field field={confirm} label="确认新密码">
          <input {...getInputProps(confirm, { type: "password" })} className={inputClass(confirm)} autoComplete="new-password" />
        </Field>
      ) : null}
    </>
  );
}
