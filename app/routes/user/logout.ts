import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireUser } from "#app/server/access.server";
import { requireCsrf } from "#app/server/security.server";
import { destroySession } from "#app/server/session.server";

/** Signing out is a POST with a CSRF token, so no link or image can sign a user out. */
export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  await requireCsrf(request, await request.formData());
  return redirect("/user/login", { headers: { "Set-Cookie": await destroySession(request) } });
}

/** Nothing to show: a signed-in visitor goes home, anyone else to sign-in. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect("/");
}
