import { data } from "@remix-run/node";
import { NotFoundPage } from "#app/components/error-boundary";
import type { RouteHandle } from "#app/lib/handle";

export const handle: RouteHandle = { title: "404" };

/** The page says what its status says (a crawler or a monitor reads the status, not the text). */
export async function loader() {
  return data(null, { status: 404 });
}

export default function NotFound() {
  return (
    <main className="sb-error-main">
      <NotFoundPage />
    </main>
  );
}
