import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireAccess } from "#app/server/access.server";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Screen } from "#app/components/screen";
import { flattenMenu } from "#app/lib/access";
import { labelOf, ROLES, workTypeLabel } from "#contracts/codes";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";

export const handle: RouteHandle = { title: SCREEN_TITLES["/"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, menu } = await requireAccess(request);
  const shortcuts = flattenMenu(menu).filter((item) => item.url !== "/" && !item.children?.length);
  return { user, shortcuts };
}

export default function Home() {
  const { user, shortcuts } = useLoaderData<typeof loader>();
  return (
    <Screen title={`您好，${user.realName}`}>
      <dl className="sb-facts">
        <div>
          <dt>账号</dt>
          <dd>{user.userName}</dd>
        </div>
        <div>
          <dt>角色</dt>
          <dd>{labelOf(ROLES, user.role)}</dd>
        </div>
        <div>
          <dt>坐席类型</dt>
          <dd>{workTypeLabel(user.workType)}</dd>
        </div>
        <div>
          <dt>坐席工号</dt>
          <dd>{user.agentId}</dd>
        </div>
        <div>
          <dt>默认队列</dt>
          <dd>{user.defaultQueueName}</dd>
        </div>
      </dl>
      <h2 className="sb-section-title">常用功能</h2>
      <ul className="sb-shortcuts" role="list">
        {shortcuts.map((item) => (
          <li key={item.code}>
            <a href={item.url} className="p-card sb-shortcut">
              {item.icon ? <i className={`pi ${item.icon}`} aria-hidden="true" /> : null}
              <span>{item.name}</span>
            </a>
          </li>
        ))}
      </ul>
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
