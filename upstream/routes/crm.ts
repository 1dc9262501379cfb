import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import type { DictionaryEntrySchema, LoginInfoSchema, MenuItem, UserSummarySchema } from "#contracts/crm";
import { PaginationSchema } from "#contracts/envelope";
import { dictionaryEntries } from "#upstream/domain/dictionary";
import { menusFor } from "#upstream/domain/menus";
import { HttpError, ok, parseInput } from "#upstream/http";
import { requireRole, requireUser, revokeUserTokens } from "#upstream/plugins/auth";
import { actorOf, writeAudit } from "#upstream/repositories/audit-log";
import { findUserInTenant, listUsers, recordLogin } from "#upstream/repositories/users";

type LoginInfo = z.infer<typeof LoginInfoSchema>;
type UserSummary = z.infer<typeof UserSummarySchema>;
type DictionaryEntry = z.infer<typeof DictionaryEntrySchema>;

const IdParamsSchema = z.object({ id: z.coerce.number().int().positive() });
const DictionaryQuerySchema = z.object({ type: z.string().min(1) });
const EndSessionsSchema = z.object({ reason: z.string().trim().min(1, "请填写原因").max(200, "原因不能超过200个字") });

/** The customer relationship service (`/crm`): accounts, menus, dictionaries. */
export const crmRoutes: FastifyPluginAsync = async (app) => {
  app.get("/crm/api/user/menus", async (request) => {
    const user = requireUser(request);
    return ok<{ menu: { children: MenuItem[] } }>({ menu: { children: menusFor(user.role, user.workType) } });
  });

  app.post("/crm/api/user/loginInfo", async (request) => {
    const user = requireUser(request);
    const row = await recordLogin(app.db, user.tenantId, user.id, new Date());
    if (!row) throw new HttpError(404, "用户不存在");
    return ok<LoginInfo>({
      id: row.id,
      agentState: row.agent_state,
      queueName: row.default_queue_name,
      userName: row.user_name,
    });
  });

  app.get("/crm/api/users", async (request) => {
    const user = requireUser(request);
    const pagination = parseInput(PaginationSchema, request.query);
    return ok<{ list: UserSummary[]; total: number }>(await listUsers(app.db, user.tenantId, pagination));
  });

  // Which customer an account belongs to; only accounts of the caller's own tenant are visible.
  app.get("/crm/job/customerid/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const target = await findUserInTenant(app.db, user.tenantId, id);
    if (!target) throw new HttpError(404, "用户不存在");
    // Same tenant as the caller, hence the caller's customer id.
    return ok<{ userId: number; customerId: string }>({ userId: target.id, customerId: user.customerId });
  });

  // An administrator signs an account out everywhere (a lost phone, a colleague who left): every
  // token of the account ends at once, so each of its browser sessions is sent to sign-in.
  app.post("/crm/api/user/:id/logout", async (request) => {
    const user = requireRole(requireUser(request), ["admin"], "仅管理员可以强制下线账号");
    const { id } = parseInput(IdParamsSchema, request.params);
    const { reason } = parseInput(EndSessionsSchema, request.body);
    const target = await findUserInTenant(app.db, user.tenantId, id);
    if (!target) throw new HttpError(404, "用户不存在");
    if (target.id === user.id) throw new HttpError(400, "不能强制下线自己的账号，请使用“退出登录”");
    await revokeUserTokens(app, target.id);
    await writeAudit(app.db, actorOf(user), {
      action: "account.logout",
      target: { type: "user", id: target.id },
      summary: `强制下线账号「${target.user_name}」（${target.real_name}）`,
      reason,
    });
    return ok(null);
  });

  app.get("/crm/api/dictionary", async (request) => {
    requireUser(request);
    const { type } = parseInput(DictionaryQuerySchema, request.query);
    return ok<DictionaryEntry[]>(dictionaryEntries(type));
  });
};
