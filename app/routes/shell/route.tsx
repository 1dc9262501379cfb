import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { requireAccess } from "#app/server/access.server";
import { PageErrorBoundary } from "#app/components/error-boundary";
import { MenuTree } from "#app/components/menu-tree";
import { activeMenuUrl } from "#app/lib/access";
import { labelOf, ROLES, workTypeLabel } from "#contracts/codes";
import { useRootData } from "#app/root";
import { isSidebarOpen } from "#app/server/session.server";
import { takeToast } from "#app/server/toast.server";
import { FlashToast } from "#app/components/toast";

/** The root layout '/' of spec §2: top bar, the entitled menu, and the screen. */
export async function loader({ request }: LoaderFunctionArgs) {
  const access = await requireAccess(request);
  const { realName, userName, role, workType } = access.user;
  const [sidebarOpen, { toast, headers }] = await Promise.all([isSidebarOpen(request), takeToast(request)]);
  return data({ user: { realName, userName, role, workType }, menu: access.menu, sidebarOpen, toast }, { headers });
}

export default function Shell() {
  const { user, menu, sidebarOpen, toast } = useLoaderData<typeof loader>();
  const root = useRootData();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const main = useRef<HTMLElement>(null);

  // Spec §2: the scroll area resets to the top on each navigation (documents reset by themselves).
  useEffect(() => {
    main.current?.scrollTo({ top: 0 });
  }, [location.pathname]);

  return (
    <div className={`sb-shell${sidebarOpen ? "" : " sb-shell--collapsed"}`}>
      <a className="sb-skip-link" href="#main">
        跳到主要内容
      </a>
      {/* Below 768px the menu is a drawer over the page, closed on every load (the remembered state
          is the desktop's): a checkbox and its labels open it, so it works without JavaScript. */}
      <header className="sb-topbar">
        <input type="checkbox" id="sb-drawer" className="sb-switch sb-drawer-switch" autoComplete="off" />
        <label htmlFor="sb-drawer" className="sb-drawer-toggle p-button p-button-text p-button-icon-only" title="菜单">
          <i className="pi pi-bars" aria-hidden="true" />
          <span className="p-hidden-accessible">菜单</span>
        </label>
        <form method="post" action="/user/preferences" className="sb-sidebar-toggle">
          <AuthenticityTokenInput name="csrf" />
          <input type="hidden" name="sidebar" value={sidebarOpen ? "closed" : "open"} />
          <input type="hidden" name="redirectTo" value={here} />
          <button
            type="submit"
            className="p-button p-button-text p-button-icon-only"
            aria-expanded={sidebarOpen}
            aria-controls="sb-sidebar"
            title={sidebarOpen ? "收起菜单" : "展开菜单"}
          >
            <i className="pi pi-bars" aria-hidden="true" />
            <span className="p-hidden-accessible">{sidebarOpen ? "收起菜单" : "展开菜单"}</span>
          </button>
        </form>
        <a href="/" className="sb-brand">
          {root?.logo ? <img src={root.logo} alt="" width={28} height={28} /> : null}
          <span>{root?.brand.title}</span>
        </a>
        {/* On a phone the name and the account's actions fold into a menu, so the bar keeps one line. */}
        <input type="checkbox" id="sb-account" className="sb-switch sb-account-switch" autoComplete="off" />
        <label htmlFor="sb-account" className="sb-account-toggle p-button p-button-text" title="账号">
          <i className="pi pi-user" aria-hidden="true" />
          <span className="sb-account-name">{user.realName}</span>
        </label>
        <div className="sb-user">
          <span className="sb-user-name">{user.realName}</span>
          <span className="sb-user-role">
            {labelOf(ROLES, user.role)} · {workTypeLabel(user.workType)}
          </span>
          <a href="/user/password" className="p-button p-button-sm p-button-text">
            修改密码
          </a>
          <form method="post" action="/user/logout">
            <AuthenticityTokenInput name="csrf" />
            <button type="submit" className="p-button p-button-sm p-button-outlined">
              退出登录
            </button>
          </form>
        </div>
      </header>
      <nav id="sb-sidebar" className="sb-sidebar" aria-label="主菜单">
        <MenuTree items={menu} active={activeMenuUrl(location.pathname, menu)} />
      </nav>
      {/* Tapping beside the open drawer closes it; keyboard users have the 菜单 switch itself. */}
      {/* eslint-disable-next-line jsx-a11y/label-has-associated-control -- a touch target only, hidden from assistive technology */}
      <label htmlFor="sb-drawer" className="sb-drawer-backdrop" aria-hidden="true" />
      <main id="main" ref={main} className="sb-main" tabIndex={-1}>
        <FlashToast toast={toast} />
        <Outlet />
      </main>
    </div>
  );
}

export { PageErrorBoundary as ErrorBoundary };
