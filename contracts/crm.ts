import { z } from "zod";
import { envelope, page } from "./envelope";

/** One menu item of GET /crm/api/user/menus (data.menu.children, each with code and url). */
export type MenuItem = { code: string; name: string; url: string; icon?: string | null; children?: MenuItem[] };
export const MenuItemSchema: z.ZodType<MenuItem> = z.lazy(() =>
  z.object({
    code: z.string(),
    name: z.string(),
    url: z.string(),
    icon: z.string().nullish(),
    children: z.array(MenuItemSchema).optional(),
  }),
);
/** Only the envelope is parsed strictly: spec §5 says a code other than 1 empties the menu. */
export const MenusResponseSchema = envelope(z.object({ menu: z.object({ children: z.array(MenuItemSchema) }) }));

/** POST /crm/api/user/loginInfo — spec §3 "Login data". */
export const LoginInfoSchema = z.object({
  id: z.number().int(),
  agentState: z.string(),
  queueName: z.string(),
  userName: z.string(),
});
export const LoginInfoResponseSchema = envelope(LoginInfoSchema);

/** GET /crm/api/users — the tenant's accounts. */
export const UserSummarySchema = z.object({
  id: z.number().int(),
  userName: z.string(),
  realName: z.string(),
  role: z.string(),
  workType: z.number().int().nullable(),
});
export const UsersResponseSchema = envelope(page(UserSummarySchema));

/** GET /crm/job/customerid/{id} — the customer id an account belongs to. */
export const CustomerIdJobResponseSchema = envelope(z.object({ userId: z.number().int(), customerId: z.string() }));

/** GET /crm/api/dictionary?type=ROBOT_INDUSTRY */
export const DictionaryEntrySchema = z.object({ code: z.string(), name: z.string() });
export const DictionaryResponseSchema = envelope(z.array(DictionaryEntrySchema));

/** POST /crm/api/user/{id}/logout: an administrator ends every session of an account, with a reason. */
export const ACCOUNT_LOGOUT_REASON_MAX = 200;
export const AccountLogoutSchema = z.object({
  reason: z
    .string({ required_error: "请填写下线原因" })
    .trim()
    .min(1, "请填写下线原因")
    .max(ACCOUNT_LOGOUT_REASON_MAX, `下线原因不能超过${ACCOUNT_LOGOUT_REASON_MAX}个字`),
});
/** Answers the account signed out. */
export const AccountLogoutResponseSchema = envelope(z.object({ userId: z.number().int() }));
