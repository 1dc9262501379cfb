import { ForbiddenPage } from "#app/components/error-boundary";
import type { RouteHandle } from "#app/lib/handle";

export const handle: RouteHandle = { title: "403" };

export async function loader() {
  return null;
}

export default function Forbidden() {
  return (
    <main className="sb-error-main">
      <ForbiddenPage />
    </main>
  );
}
