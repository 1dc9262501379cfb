import { NotFoundPage } from "#app/components/error-boundary";
import type { RouteHandle } from "#app/lib/handle";

export const handle: RouteHandle = { title: "404" };

export async function loader() {
  return null;
}

export default function NotFound() {
  return (
    <main className="sb-error-main">
      <NotFoundPage />
    </main>
  );
}
