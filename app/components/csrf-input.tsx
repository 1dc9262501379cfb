import { AuthenticityTokenInput } from "remix-utils/csrf/react";

/** The CSRF token every form posts (checked by requireActionAccess). */
export function CsrfInput() {
  return <AuthenticityTokenInput name="csrf" />;
}
