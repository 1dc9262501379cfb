import { getFormProps, useForm, type FormMetadata } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { HoneypotInputs, HoneypotProvider } from "remix-utils/honeypot/react";
import type { z } from "zod";
import { SuccessNotice } from "#app/components/account-card";
import { CodeRequestFields, ResendCountdownScript } from "#app/components/code-request";
import { CsrfInput } from "#app/components/csrf-input";
import { FormErrors } from "#app/components/form-field";
import { codeFormSchema } from "./code-form-schema";
import type { CodeFormAnswer, codeFormPage } from "./code-form.server";

/** conform's form for a code form (sign-up, reset): the last answer's values and errors, checked on blur once it hydrates. */
export function useCodeForm<Schema extends z.ZodTypeAny>(id: string, schema: Schema) {
  const last = useActionData<CodeFormAnswer>();
  type Fields = Omit<z.input<Schema>, "intent"> & { intent: string; mobile: string; challengeAnswer: string; code: string };
  return useForm<Fields>({
    id,
    lastResult: last?.result,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: codeFormSchema(formData.get("intent"), schema) }),
  });
}

/**
 * A code form on its page: the number, the picture and the code (`CodeRequestFields`), then the
 * form's own fields (`children`) and its button (`intent`, `submitLabel`); Enter in any field
 * presses that button, the code button is pressed on purpose. The honeypot and the picture come
 * from the page's loader (`codeFormPage`), the notice and the codes asked for from the last answer.
 */
export function CodeForm<Schema extends Record<string, unknown>>({
  form,
  fields,
  intent,
  submitLabel,
  links,
  children,
}: {
  form: FormMetadata<Schema>;
  fields: Parameters<typeof CodeRequestFields>[0]["fields"];
  intent: string;
  submitLabel: string;
  links: ReactNode;
  children: ReactNode;
}) {
  const page = useLoaderData<typeof codeFormPage>();
  const last = useActionData<CodeFormAnswer>();
  return (
    <>
      <Form method="post" {...getFormProps(form)} className="sb-form">
        <button type="submit" name="intent" value={intent} className="sb-default-submit" tabIndex={-1} aria-hidden="true">
          {submitLabel}
        </button>
        <CsrfInput />
        <HoneypotProvider {...page.honeypot}>
          <HoneypotInputs label="请勿填写此项" />
        </HoneypotProvider>
        <FormErrors id={form.errorId} errors={form.errors} />
        {last?.notice ? <SuccessNotice>{last.notice}</SuccessNotice> : null}
        <CodeRequestFields fields={fields} challenge={page.challenge} failure={page.challengeFailure} state={last} />
        {children}
        <button type="submit" name="intent" value={intent} className="p-button sb-login-submit">
          {submitLabel}
        </button>
        <p className="sb-login-links">{links}</p>
      </Form>
      <ResendCountdownScript state={last} />
    </>
  );
}
