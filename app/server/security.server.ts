import { createCookie, data } from "@remix-run/node";
import { CSRF, CSRFError } from "remix-utils/csrf/server";
import { Honeypot } from "remix-utils/honeypot/server";
import { secrets, secureCookies } from "./session.server";

export const CSRF_FIELD = "csrf";

export const csrf = new CSRF({
  cookie: createCookie("sb_csrf", { path: "/", httpOnly: true, sameSite: "lax", secure: secureCookies, secrets }),
  formDataKey: CSRF_FIELD,
  secret: secrets[0],
});

export const honeypot = new Honeypot({ encryptionSeed: secrets[0] });

/** Every action validates the CSRF token of its form; a failure is a clear 403, never a 500. */
export async function requireCsrf(request: Request, form: FormData): Promise<void> {
  try {
    await csrf.validate(form, request.headers);
  } catch (error) {
    if (error instanceof CSRFError) {
      throw data({ message: "页面已过期，请刷新页面后重试", status: 403, what: "安全校验" }, { status: 403 });
    }
    throw error;
  }
}

/**
 * A filled honeypot is a robot: refuse quietly with 400. A tampered timestamp field is refused the
 * same way: it cannot be decrypted, and the library throws its decryption error, not a SpamError.
 */
export function requireHuman(form: FormData): void {
  try {
    honeypot.check(form);
  } catch {
    throw data({ message: "提交无效，请刷新页面后重试", status: 400, what: "安全校验" }, { status: 400 });
  }
}
