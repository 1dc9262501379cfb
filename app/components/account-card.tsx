import type { ReactNode } from "react";
import { PASSWORD_RULES } from "#contracts/account";
import { useRootData } from "#app/root";

/** The card of the account pages outside the shell (sign-up, reset, company details, password), as the sign-in page. */
export function AccountCard({ title, children }: { title: string; children: ReactNode }) {
  const root = useRootData();
  return (
    <main className="sb-login">
      <div className="sb-login-card sb-account-card p-card">
        <header className="sb-login-brand">
          {root?.logo ? <img src={root.logo} alt="" width={48} height={48} /> : null}
          <p>{root?.brand.title}</p>
          <h1>{title}</h1>
        </header>
        {children}
      </div>
    </main>
  );
}

/** The password rules under a password field (its aria-describedby). */
export function PasswordRules({ id }: { id: string }) {
  return (
    <small id={id} className="sb-hint">
      {PASSWORD_RULES}
    </small>
  );
}

/** A notice that is not an error (a code sent, a password reset). */
export function SuccessNotice({ children }: { children: ReactNode }) {
  return (
    <div className="p-message p-message-success sb-message" role="status">
      {children}
    </div>
  );
}

/** 138****8888 */
export const maskMobile = (mobile: string) => (mobile.length === 11 ? `${mobile.slice(0, 3)}****${mobile.slice(7)}` : mobile);
