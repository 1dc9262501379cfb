import { data } from "@remix-run/node";
import { ForbiddenPage } from "#app/components/error-boundary";
import type { RouteHandle } from "#app/lib/handle";

export const handle: RouteHandle = { title: "403" };

/** The page says what its status says (a crawler or a monitor reads the status, not the text). */
export async function loader() {
  return data(null, { status: 403 });
}

export default function Forbidden() {
  return (
    <main className="sb-error-main">
      <ForbiddenPage />
    </main>
  );
}
