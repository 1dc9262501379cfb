import type { ReactNode } from "react";

/** The heading every screen starts with; later issues fill the body. */
export function Screen({ title, actions, children }: { title: string; actions?: ReactNode; children?: ReactNode }) {
  return (
    <section className="sb-screen" aria-labelledby="screen-title">
      <header className="sb-screen-header">
        <h1 id="screen-title">{title}</h1>
        {actions ? <div className="sb-screen-actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}
