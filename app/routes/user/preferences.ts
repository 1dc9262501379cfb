import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireUser } from "#app/server/access.server";
import { readPostedForm, requireCsrf } from "#app/server/security.server";
import { safeRedirectTo, sidebarCookie } from "#app/server/session.server";

/** The sidebar's open/closed state, kept in a cookie (spec §2, §9); works without JavaScript. */
export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const form = await readPostedForm(request);
  await requireCsrf(request, form);
  const state = form.get("sidebar") === "closed" ? "closed" : "open";
  return redirect(safeRedirectTo(form.get("redirectTo")), {
    headers: { "Set-Cookie": await sidebarCookie.serialize(state) },
  });
}

/** Nothing to show: a signed-in visitor goes home, anyone else to sign-in. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect("/");
}
