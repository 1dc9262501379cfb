import { data } from "@remix-run/node";
import { NOT_FOUND_TEXT, PageErrorBoundary } from "#app/components/error-boundary";
import type { RouteHandle } from "#app/lib/handle";

export const handle: RouteHandle = { title: "404" };

/** Any path the route tree does not know: 404 (spec §2, §8). */
export async function loader() {
  throw data({ message: NOT_FOUND_TEXT, status: 404, what: "页面" }, { status: 404 });
}

export async function action() {
  throw data({ message: NOT_FOUND_TEXT, status: 404, what: "页面" }, { status: 404 });
}

export default function NotFound() {
  return null;
}

export { PageErrorBoundary as ErrorBoundary };
