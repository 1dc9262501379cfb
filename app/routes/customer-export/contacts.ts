import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAccess } from "#app/server/access.server";
import { exportContacts } from "#app/services/customers.server";
import { streamDownload } from "#app/server/download.server";

/** GET /contacts/export?keyword=&group=&v<id>= — the filtered contacts as CSV, streamed from the platform. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const params = new URL(request.url).searchParams;
  const group = Number(params.get("group"));
  const values = Object.fromEntries(
    [...params].filter(([key, value]) => /^v\d+$/.test(key) && value).map(([key, value]) => [key.slice(1), value.slice(0, 200)]),
  );
  const keyword = params.get("keyword")?.trim().slice(0, 30) || undefined;
  return streamDownload(
    await exportContacts(caller, { keyword, groupId: Number.isInteger(group) && group > 0 ? group : undefined, values }),
    "联系人.csv",
  );
}
