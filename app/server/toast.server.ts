import { createCookie, redirect } from "@remix-run/node";
import { secrets, secureCookies } from "./session.server";

/**
 * The message a successful action leaves for the next page ("已保存"): a signed, short-lived
 * cookie read once by the shell (post/redirect/get, so it works without JavaScript).
 */
const toastCookie = createCookie("sb_toast", { path: "/", httpOnly: true, sameSite: "lax", secure: secureCookies, secrets, maxAge: 60 });

export type Toast = { tone: "success" | "info" | "error"; message: string };

/** A redirect after a successful action, carrying its message. */
export async function redirectWithToast(
  url: string,
  message: string,
  tone: Toast["tone"] = "success",
  headers?: HeadersInit,
): Promise<Response> {
  const out = new Headers(headers);
  out.append("Set-Cookie", await toastCookie.serialize({ tone, message } satisfies Toast));
  return redirect(url, { headers: out });
}

/** The toast waiting for this page, and the header that clears it (only when there was one). */
export async function takeToast(request: Request): Promise<{ toast: Toast | null; headers?: HeadersInit }> {
  const cookies = request.headers.get("Cookie");
  if (!cookies?.includes("sb_toast=")) return { toast: null };
  const value = (await toastCookie.parse(cookies)) as Toast | null;
  const toast = value && typeof value.message === "string" ? { tone: value.tone ?? "success", message: value.message.slice(0, 200) } : null;
  return { toast, headers: { "Set-Cookie": await toastCookie.serialize("", { maxAge: 0 }) } };
}
