import { Screen } from "#app/components/screen";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import type { RouteHandle } from "#app/lib/handle";

export const handle: RouteHandle = { title: "找回密码" };

/** Public (spec §2). The reset flow belongs to the registration and account work. */
export async function loader() {
  return null;
}

export default function Reset() {
  return (
    <main className="sb-public">
      <Screen title="找回密码">
        <p>请联系所在租户的管理员重置密码。</p>
        <a href="/user/login">返回登录</a>
      </Screen>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
