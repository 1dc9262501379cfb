import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import {
  AccountLogoutSchema,
  type DictionaryEntrySchema,
  type LoginInfoSchema,
  type MenuItem,
  type UserSummarySchema,
} from "#contracts/crm";
import { PaginationSchema } from "#contracts/envelope";
import { dictionaryEntries } from "#upstream/domain/dictionary";
import { menusFor } from "#upstream/domain/menus";
import { HttpError, ok, parseInput } from "#upstream/http";
import { forgetUserSessions, requireUser } from "#upstream/plugins/auth";
import { deleteUserAccessTokens } from "#upstream/repositories/access-tokens";
import { actorOf, withAudit } from "#upstream/repositories/audit-log";
import { findUserInTenant, listUsers, recordLogin } from "#upstream/repositories/users";

type LoginInfo = z.infer<typeof LoginInfoSchema>;
type UserSummary = z.infer<typeof UserSummarySchema>;
type DictionaryEntry = z.infer<typeof DictionaryEntrySchema>;

const IdParamsSchema = z.object({ id: z.coerce.number().int().positive() });
const DictionaryQuerySchema = z.object({ type: z.string().min(1) });

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
  // token of the account ends at once, so each of its browser sessions is sent to sign-in. A phone
  // left signed in would be offered calls nobody answers: it is signed out first; an agent on a
  // call or writing its result is left to finish, so no call result is lost.
  app.post("/crm/api/user/:id/logout", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const { reason } = parseInput(AccountLogoutSchema, request.body);
    const target = await findUserInTenant(app.db, user.tenantId, id);
    if (!target) throw new HttpError(404, "用户不存在");
    if (target.id === user.id) throw new HttpError(400, "不能强制下线自己的账号，请使用“退出登录”");
    const phone = app.cti.phoneState(user.tenantId, target.id);
    if (["RINGING", "TALKING", "HOLD", "ACW"].includes(phone)) {
      throw new HttpError(409, "该坐席正在通话或话后整理，请在结束后再强制下线，以免丢失通话结果");
    }
    if (phone !== "SIGNED_OUT") await app.cti.forceSignOut(user.tenantId, target.id, user.realName, reason);
    // The tokens go with the audit row, in one transaction; then what every process keeps of them.
    await withAudit(app.db, actorOf(user), async (trx) => {
      await deleteUserAccessTokens(trx, target.id);
      const summary = `强制下线账号「${target.user_name}」（${target.real_name}）`;
      return { result: null, audit: { action: "account.logout", target: { type: "user", id: target.id }, summary, reason } };
    });
    await forgetUserSessions(app, target.id);
    request.log.info({ event: "forced sign-out", userId: target.id, by: user.id });
    return ok<{ userId: number }>({ userId: target.id });
  });

  app.get("/crm/api/dictionary", async (request) => {
    requireUser(request);
    const { type } = parseInput(DictionaryQuerySchema, request.query);
    return ok<DictionaryEntry[]>(dictionaryEntries(type));
  });
};
