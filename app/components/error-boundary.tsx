import { isRouteErrorResponse, Link, useLocation, useRouteError } from "@remix-run/react";
import { Component, type ReactNode } from "react";
import { ERROR_PAGE_FAILURE_TEXT, errorPageFailureDetails } from "./error-page-failure";

/** Spec §2/§8 texts. */
export const NOT_FOUND_TEXT = "This page could not be found";
export const BACK_HOME_TEXT = "Back to the home page";
export const FORBIDDEN_TEXT = "无权访问该页面";

/** Spec §8: errors are a message and a status code, defaulting to 500 and 'Error' (and, when known, what failed). */
export function describeError(error: unknown): { status: number; message: string; what?: string } {
  if (isRouteErrorResponse(error)) {
    const body = error.data as { message?: unknown; what?: unknown } | string | null;
    const what = body && typeof body === "object" && typeof body.what === "string" ? body.what : undefined;
    const message =
      typeof body === "string" && body
        ? body
        : body && typeof body === "object" && typeof body.message === "string"
          ? body.message
          : error.statusText || "Error";
    return { status: error.status || 500, message: error.status === 404 && !message ? NOT_FOUND_TEXT : message, what };
  }
  if (error instanceof Error) return { status: 500, message: error.message || "Error" };
  return { status: 500, message: "Error" };
}

export function NotFoundPage() {
  return (
    <section className="sb-error-page" aria-labelledby="error-title">
      <p className="sb-error-status">404</p>
      <h1 id="error-title">{NOT_FOUND_TEXT}</h1>
      <p className="sb-error-hint">您访问的页面不存在，请检查地址是否正确。</p>
      <Link to="/" reloadDocument className="p-button">
        {BACK_HOME_TEXT}
      </Link>
    </section>
  );
}

export function ForbiddenPage({ message = FORBIDDEN_TEXT }: { message?: string }) {
  return (
    <section className="sb-error-page" aria-labelledby="error-title">
      <p className="sb-error-status">403</p>
      <h1 id="error-title">{message}</h1>
      <p className="sb-error-hint">当前账号没有该页面的权限，如需开通请联系管理员。</p>
      <Link to="/" reloadDocument className="p-button">
        返回首页
      </Link>
    </section>
  );
}

/** What failed when a form's security check refused it: an expired page, not a missing permission. */
const SECURITY_CHECK = "安全校验";

export function ErrorPage({ status, message, what }: { status: number; message: string; what?: string }) {
  const { pathname, search } = useLocation();
  if (status === 404) return <NotFoundPage />;
  if (status === 403 && what !== SECURITY_CHECK) return <ForbiddenPage message={message} />;
  return (
    <section className="sb-error-page" role="alert" aria-labelledby="error-title">
      <p className="sb-error-status">{status}</p>
      <h1 id="error-title">{message}</h1>
      <p className="sb-error-hint">
        {what === SECURITY_CHECK
          ? "为了账号安全，页面打开过久后需要刷新再提交；您填写的内容请在刷新后重新填写。"
          : "请稍后重试；如果问题持续存在，请联系管理员。"}
      </p>
      <a href={`${pathname}${search}`} className="p-button p-button-outlined">
        重新加载
      </a>
    </section>
  );
}

/** Catches a failure of the error page itself once hydrated (on the server, entry.server does). */
class ErrorPageGuard extends Component<{ children: ReactNode }, { failure: unknown }> {
  state = { failure: undefined as unknown };
  static getDerivedStateFromError(failure: unknown) {
    return { failure };
  }
  render() {
    if (this.state.failure === undefined) return this.props.children;
    return (
      <section className="sb-error-page" role="alert">
        <h1>{ERROR_PAGE_FAILURE_TEXT}</h1>
        <p>{errorPageFailureDetails(this.state.failure)}</p>
        <a href="/">Go back to home</a>
      </section>
    );
  }
}

/** Every screen exports this as its ErrorBoundary, so the shell and menu survive a failing screen. */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  return (
    <ErrorPageGuard>
      <ErrorPage {...describeError(error)} />
    </ErrorPageGuard>
  );
}

/** For routes that render a whole page outside the shell (root, shell, sign-in, 404). */
export function PageErrorBoundary() {
  return (
    <main className="sb-error-main">
      <GeneralErrorBoundary />
    </main>
  );
}
