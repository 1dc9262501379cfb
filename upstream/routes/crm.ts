import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import type { DictionaryEntrySchema, LoginInfoSchema, MenuItem, UserSummarySchema } from "#contracts/crm";
import { PaginationSchema } from "#contracts/envelope";
import { dictionaryEntries } from "#upstream/domain/dictionary";
import { menusFor } from "#upstream/domain/menus";
import { HttpError, ok, parseInput } from "#upstream/http";
import { requireUser } from "#upstream/plugins/auth";
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

  app.get("/crm/api/dictionary", async (request) => {
    requireUser(request);
    const { type } = parseInput(DictionaryQuerySchema, request.query);
    return ok<DictionaryEntry[]>(dictionaryEntries(type));
  });
};
