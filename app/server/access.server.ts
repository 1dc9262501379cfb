import { data, redirect } from "@remix-run/node";
import { ExpiringCache } from "#common/expiring-cache";
import type { MenuItem } from "#contracts/crm";
import { flattenMenu, isPathAllowed, normalisePath } from "#app/lib/access";
import { menuForWorkType } from "#app/lib/menu";
import { listMenus } from "#app/services/crm.server";
import type { Caller, UploadFile } from "#app/services/upstream.server";
import { readPostedForm, readPostedUpload, requireCsrf } from "./security.server";
import { hearingRevocations, onRevocation } from "./revocations.server";
import { getSignedIn, loginUrl, revocationEnds, signOutRedirect, tokenHashOf, type SignedIn } from "./session.server";

export type Access = SignedIn & { caller: Caller; menu: MenuItem[] };

/**
 * The user's menu (for their work type) per token, kept briefly: without this every page view
 * would ask the platform for it again. Kept as one object, so what is derived from it per menu
 * (lib/access.ts) is derived once. Like the verified session, kept only while revocations are
 * heard; each forgets the menus of the sessions it ends, so the next page asks the platform, which
 * refuses an ended session (decision 037).
 */
const MENU_KEPT_MS = 30_000;
const menus = new ExpiringCache<string, { token: string; userId: number; menu: Promise<MenuItem[]> }>(10_000);

onRevocation((revocation) => menus.deleteWhere((kept) => revocationEnds(revocation, kept.token, kept.userId)));

/** Forgets what was kept for a token that has ended (sign-out). */
export function forgetToken(token: string): void {
  menus.delete(tokenHashOf(token));
}

function cachedMenu(caller: Caller, workType: number): Promise<MenuItem[]> {
  const key = tokenHashOf(caller.token);
  const kept = menus.get(key);
  if (kept && hearingRevocations()) return kept.menu;
  const menu = listMenus(caller).then((items) => menuForWorkType(items, workType));
  if (!hearingRevocations()) return menu;
  menus.set(key, { token: caller.token, userId: caller.userId, menu }, Date.now() + MENU_KEPT_MS);
  menu.catch(() => menus.delete(key));
  return menu;
}

export function callerFor(auth: SignedIn, request: Request): Caller {
  return {
    token: auth.token,
    customerId: auth.user.customerId,
    userId: auth.user.id,
    endSession: () => signOutRedirect(request),
  };
}

/** Signed in, or off to sign-in with a way back. */
export async function requireUser(request: Request): Promise<SignedIn> {
  const auth = await getSignedIn(request);
  if (!auth) throw redirect(loginUrl(request));
  return auth;
}

/**
 * Every loader and action calls this for itself (design.md §3): signed in, and the request's
 * path entitled by the user's menu (spec §2/§6), or a 403.
 */
export function requireAccess(request: Request): Promise<Access> {
  // A page's loaders run in parallel on the same request, and each checks access for itself.
  let access = accessByRequest.get(request);
  if (!access) {
    access = checkAccess(request);
    accessByRequest.set(request, access);
  }
  return access;
}
const accessByRequest = new WeakMap<Request, Promise<Access>>();

async function checkAccess(request: Request): Promise<Access> {
  const auth = await requireUser(request);
  const caller = callerFor(auth, request);
  const menu = await cachedMenu(caller, auth.user.workType);
  if (!isPathAllowed(new URL(request.url).pathname, menu)) {
    throw data({ message: "无权访问该页面", status: 403, what: "权限校验" }, { status: 403 });
  }
  return { ...auth, caller, menu };
}

/** For actions: access, then the form with its CSRF token checked. */
export async function requireActionAccess(request: Request): Promise<{ access: Access; form: FormData }> {
  const access = await requireAccess(request);
  const form = await readPostedForm(request);
  await requireCsrf(request, form);
  return { access, form };
}

/**
 * For the actions that take a file: access, then the form read as it arrives. Its CSRF token is
 * checked before the file goes anywhere; `onFile` sends it on as a stream (readPostedUpload).
 */
export async function requireUploadAccess<T>(
  request: Request,
  onFile: (access: Access, fieldsBefore: FormData, file: UploadFile) => Promise<T> | undefined,
): Promise<{ access: Access; form: FormData; sent?: T }> {
  const access = await requireAccess(request);
  let checked = false;
  const { form, sent } = await readPostedUpload(request, async (fieldsBefore, file) => {
    await requireCsrf(request, fieldsBefore);
    checked = true;
    return onFile(access, fieldsBefore, file);
  });
  if (!checked) await requireCsrf(request, form);
  return { access, form, sent };
}

/**
 * A screen the first-segment rule would let in through a sibling's menu entry (a supervisor's
 * 工单记录 opens /businessTemplate/…): its own menu url must be in the user's menu, or 403.
 */
export function requireMenuUrl(access: Access, url: string): Access {
  if (!flattenMenu(access.menu).some((item) => normalisePath(item.url) === url)) {
    throw data({ message: "无权访问该页面", status: 403, what: "权限校验" }, { status: 403 });
  }
  return access;
}
