import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteLoaderData } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { AuthenticityTokenProvider } from "remix-utils/csrf/react";
import primeIcons from "primeicons/primeicons.css?url";
import theme from "primereact/resources/themes/lara-light-blue/theme.css?url";
import structure from "#app/styles/primereact-structure.css?url";
import appStyles from "#app/styles/app.css?url";
import { brandFor, logoFor } from "#app/server/brand.server";
import { restoreEarlyTextareas } from "#app/client/early-input";
import { PageErrorBoundary } from "#app/components/error-boundary";
import { BRANDS, pageTitle } from "#app/lib/brand";
import { screenTitle, wantsHydration } from "#app/lib/handle";
import { useNonce } from "#app/lib/nonce";
import { csrf } from "#app/server/security.server";

/** What every page says of itself to search engines and link previews. */
const PAGE_DESCRIPTION = "呼叫中心坐席控制台：语音与文本坐席工作台、外呼活动、主管实时监控与质检、管理员配置。";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: theme },
  { rel: "stylesheet", href: structure },
  { rel: "stylesheet", href: primeIcons },
  { rel: "stylesheet", href: appStyles },
];

/** Public data only: the brand, its logo, and the CSRF token every form carries. Runs on every page: keep it cheap. */
export async function loader({ request }: LoaderFunctionArgs) {
  const brand = brandFor(request);
  const [logo, [csrfToken, csrfCookie]] = await Promise.all([logoFor(brand), csrf.commitToken(request)]);
  return data({ brand, logo, csrfToken }, csrfCookie ? { headers: { "Set-Cookie": csrfCookie } } : undefined);
}

export type RootData = typeof loader;
export const useRootData = () => useRouteLoaderData<RootData>("root");

export function Layout({ children }: { children: ReactNode }) {
  const root = useRootData();
  const matches = useMatches();
  const nonce = useNonce();
  const hydrate = wantsHydration(matches);
  return (
    <html lang="zh-CN">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="description" content={PAGE_DESCRIPTION} />
        <title>{pageTitle(screenTitle(matches), root?.brand ?? BRANDS.default)}</title>
        {root?.logo ? <link rel="icon" href={root.logo} /> : null}
        <Meta />
        <Links />
      </head>
      <body className={`sb-brand-${root?.brand.key ?? "default"}`}>
        {children}
        {/* Zero JavaScript by default: only routes that ask for it hydrate (decision 001). */}
        {hydrate ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  const root = useRootData();
  // What was typed before the page hydrated stays (app/client/early-input.ts).
  useEffect(restoreEarlyTextareas, []);
  return (
    <AuthenticityTokenProvider token={root?.csrfToken ?? ""}>
      <Outlet />
    </AuthenticityTokenProvider>
  );
}

export { PageErrorBoundary as ErrorBoundary };
