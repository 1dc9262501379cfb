import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { forgetToken, requireUser } from "#app/server/access.server";
import { readPostedForm, requireCsrf } from "#app/server/security.server";
import { destroySession } from "#app/server/session.server";
import { revokeToken } from "#app/services/uaa.server";
import { log, withRequest } from "#app/services/observability.server";

/**
 * Signing out is a POST with a CSRF token, so no link or image can sign a user out. It revokes
 * the platform token (a copy of the cookie then opens nothing) and forgets what this console kept
 * of the session. If the platform cannot be reached the browser is still signed out.
 */
export async function action({ request }: ActionFunctionArgs) {
  const auth = await requireUser(request);
  await requireCsrf(request, await readPostedForm(request));
  await revokeToken(auth.token).catch((error: unknown) => log.warn(withRequest({ event: "sign-out: token not revoked", err: error })));
  log.info(withRequest({ event: "sign-out", userId: auth.user.id }));
  // After the revocation: a copy of the cookie read meanwhile must not keep the menu of a live token.
  forgetToken(auth.token);
  return redirect("/user/login", { headers: { "Set-Cookie": await destroySession(request) } });
}

/** Nothing to show: a signed-in visitor goes home, anyone else to sign-in. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect("/");
}
