import {
  AccountLogoutResponseSchema,
  DictionaryResponseSchema,
  LoginInfoResponseSchema,
  MenusResponseSchema,
  UsersResponseSchema,
} from "#contracts/crm";
import { menuFromResponse } from "#app/lib/menu";
import { call, requireData, type Caller } from "./upstream.server";

/** GET /crm/api/user/menus — spec §5: any code other than 1 empties the menu. */
export async function listMenus(caller: Caller) {
  const answer = await call({
    path: "/crm/api/user/menus",
    schema: MenusResponseSchema,
    what: "获取菜单",
    caller,
    allowFailureCode: true,
  });
  return menuFromResponse(answer);
}

/** POST /crm/api/user/loginInfo — the login data of spec §3, recorded at sign-in. */
export async function recordLoginInfo(caller: Caller) {
  const answer = await call({
    method: "POST",
    path: "/crm/api/user/loginInfo",
    json: {},
    schema: LoginInfoResponseSchema,
    what: "记录登录信息",
    caller,
  });
  return requireData(answer, "记录登录信息");
}

export async function listUsers(caller: Caller) {
  const answer = await call({ path: "/crm/api/users", schema: UsersResponseSchema, what: "获取账号列表", caller });
  return requireData(answer, "获取账号列表");
}

export async function listRobotIndustries(caller: Caller) {
  const answer = await call({
    path: "/crm/api/dictionary",
    query: { type: "ROBOT_INDUSTRY" },
    schema: DictionaryResponseSchema,
    what: "获取行业字典",
    caller,
  });
  return answer.data ?? [];
}

/** POST /crm/api/user/{id}/logout — ends every session of an account (an administrator's 强制下线). */
export async function logoutAccount(caller: Caller, userId: number, reason: string) {
  const answer = await call({
    method: "POST",
    path: `/crm/api/user/${userId}/logout`,
    json: { reason },
    schema: AccountLogoutResponseSchema,
    what: "强制下线",
    caller,
  });
  requireData(answer, "强制下线");
}
