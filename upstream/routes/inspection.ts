import { PassThrough } from "node:stream";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { z } from "zod";
import {
  INSPECTION_NOTIFICATIONS,
  InspectionExportSchema,
  InspectionListQuerySchema,
  InspectionScoreSchema,
  PerformanceQuerySchema,
  QC_DETAIL_TYPES,
  QcAccessGrantSchema,
  QcAccessQuerySchema,
  QcAccessRevokeSchema,
  QcApplySchema,
  QcAppealDecisionSchema,
  QcAppealSchema,
  QcCallbackQuerySchema,
  QcOrderSchema,
  QcReallotSchema,
  QcRecoverySchema,
  ScoreFormInputSchema,
  ScoreFormStateSchema,
  type InspectionDetail,
  type InspectionPage,
  type InspectionRow,
  type QcBulkResult,
  type QcItemResult,
  type ScoreForm,
} from "#contracts/inspection";
import { writeInspectionCsv, writeInspectionXlsx } from "#upstream/domain/inspection-export";
import { HttpError, ok, parseInput } from "#upstream/http";
import { requireRole, requireUser } from "#upstream/plugins/auth";
import { actorOf } from "#upstream/repositories/audit-log";
import { callReaderOf, findCallDetail } from "#upstream/repositories/call-records";
import type { Trx } from "#upstream/db";
import {
  InspectionRefused,
  findInspection,
  inspectionBatches,
  listInspections,
  liveStates,
  nextLocked,
  releaseExpiredLocks,
  scopeOf,
  type Viewer,
} from "#upstream/repositories/inspection";
import { grantAccess, listAccess, listCampaignChoices, listInspectors, revokeAccess } from "#upstream/repositories/inspection-access";
import { applyForCalls, lockCalls, releaseCalls } from "#upstream/repositories/inspection-locks";
import { agentPerformance } from "#upstream/repositories/inspection-performance";
import { appealResult, decideAppeal, findAppeal, inspectionHistory, scoreCall } from "#upstream/repositories/inspection-scoring";
import { tenantQueues } from "#upstream/repositories/monitor";
import {
  activeForm,
  changeFormState,
  checkEvaluation,
  deleteForm,
  checkRevision,
  findEvaluations,
  findForm,
  listForms,
  saveEvaluation,
  saveForm,
} from "#upstream/repositories/inspection-forms";
import type { AuthUser } from "#upstream/repositories/users";

const INSPECTORS_ONLY = "仅质检员（主管或管理员）可以质检";
const ADMIN_ONLY = "仅管理员可以授予或收回质检权限";
const IdParams = z.object({ id: z.coerce.number().int("编号无效").positive("编号无效").max(Number.MAX_SAFE_INTEGER, "编号无效") });
const DetailParams = z.object({
  callId: IdParams.shape.id,
  selectType: z.coerce
    .number()
    .int()
    .refine((n) => n === QC_DETAIL_TYPES.call || n === QC_DETAIL_TYPES.inspection, "查询类型无效，只能是 1（通话）或 2（质检记录）"),
});
const CustomerParams = z.object({ id: IdParams.shape.id, caseId: z.string().trim().min(1).max(80) });

const viewerOf = (user: AuthUser): Viewer => ({ id: user.id, role: user.role });

/**
 * Quality inspection (`/ccb`, spec §7, decision 018). Inspectors are supervisors and
 * administrators; agents read their own results and appeal them. Every query is scoped by the
 * caller's tenant (another tenant's call is a 404), every change writes its audit rows in its
 * transaction, and the /ccb headers userId (and customerId) must name the caller.
 */
export const inspectionRoutes: FastifyPluginAsync = async (app) => {
  /** Spec §7: /ccb calls carry customerId and userId; when sent, they must be the caller's. */
  function caller(request: FastifyRequest): AuthUser {
    const user = requireUser(request);
    const { userid, customerid } = request.headers;
    if (typeof userid === "string" && userid !== String(user.id)) throw new HttpError(403, "请求头 userId 与登录用户不符");
    if (typeof customerid === "string" && customerid !== user.customerId) throw new HttpError(403, "请求头 customerId 与登录租户不符");
    return user;
  }

  /**
   * One change in one transaction, expired locks released first. Once it is committed, the calls
   * whose inspection state moved (`touched` names them from the result, plus the expired locks)
   * are published to the tenant's supervisors as they are now: the live queue (decision 033).
   */
  async function change<T>(user: AuthUser, work: (trx: Trx) => Promise<T>, touched: (result: T) => number[] = () => []): Promise<T> {
    let expired: number[] = [];
    const result = await app.db.transaction().execute(async (trx) => {
      expired = await releaseExpiredLocks(trx, user.tenantId);
      return work(trx);
    });
    await publishCalls(user.tenantId, [...expired, ...touched(result)]);
    return result;
  }

  // Committed is committed: a notification that fails to go out is logged, the change stands.
  async function publishCalls(tenantId: number, ids: number[]) {
    if (ids.length === 0) return;
    try {
      const calls = await liveStates(app.db, tenantId, [...new Set(ids)]);
      if (calls.length > 0) await app.notifications.publish({ tenantId, supervisors: true }, INSPECTION_NOTIFICATIONS.calls, { calls });
    } catch (error) {
      app.log.error({ err: error }, "publishing the inspection queue's change failed");
    }
  }
  const succeeded = (results: QcItemResult[]) => results.filter((r) => r.ok).map((r) => r.callId);

  const bulk = (results: QcItemResult[]): QcBulkResult => ({
    done: results.filter((r) => r.ok).length,
    failed: results.filter((r) => !r.ok).length,
    results,
  });

  async function list(request: FastifyRequest, campaignType?: number) {
    const user = caller(request);
    const query = parseInput(InspectionListQuerySchema, request.body);
    await change(user, async () => null);
    return ok<InspectionPage>(await listInspections(app.db, user.tenantId, viewerOf(user), { ...query, campaignType }));
  }

  app.post("/ccb/callInfo", async (request) => list(request));
  // Human-robot calls: collaborative campaigns (type 2), the robot first and then an agent.
  app.post("/ccb/humanRobot/callInfo", async (request) => list(request, 2));

  // Streams the whole filtered list (decision 018): one keyset batch in memory at a time.
  app.post("/ccb/callInfo/export", async (request, reply) => {
    const user = caller(request);
    const { format, ...filters } = parseInput(InspectionExportSchema, request.body);
    const batches = inspectionBatches(app.db, user.tenantId, viewerOf(user), filters);
    const body = new PassThrough();
    const writing = format === "xlsx" ? writeInspectionXlsx(batches, body) : writeInspectionCsv(batches, body);
    writing.catch((error: unknown) => {
      if (body.destroyed) return; // the client went away
      request.log.error({ err: error }, "inspection export failed");
      body.destroy(error instanceof Error ? error : new Error(String(error)));
    });
    return reply
      .header(
        "Content-Type",
        format === "xlsx" ? "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" : "text/csv; charset=utf-8",
      )
      .header("Content-Disposition", `attachment; filename="inspection-${new Date().toISOString().slice(0, 10)}.${format}"`)
      .send(body);
  });

  app.put("/ccb/callInfo/:id", async (request) => {
    const user = requireRole(caller(request), ["admin", "supervisor"], INSPECTORS_ONLY);
    const { id } = parseInput(IdParams, request.params);
    const input = parseInput(InspectionScoreSchema, request.body);
    if (input.callId !== id) throw new HttpError(400, "callId 与路径中的通话编号不一致");
    const row = await change(
      user,
      async (trx) => {
        // With an active scoring form the answers are checked against it and kept (decision 028).
        const evaluated = await checkEvaluation(trx, user.tenantId, input.evaluation);
        await scoreCall(
          trx,
          user.tenantId,
          viewerOf(user),
          actorOf(user),
          id,
          input,
          evaluated && { formName: evaluated.form.name, score: evaluated.score, vetoed: evaluated.vetoed },
        );
        if (evaluated) await saveEvaluation(trx, user.tenantId, id, user.id, evaluated);
        return (await findInspection(trx, user.tenantId, viewerOf(user), id))!;
      },
      () => [id],
    );
    return ok<InspectionRow>(row);
  });

  // The inspector's next locked call after {id}; when none is left, one more is claimed for them.
  app.get("/ccb/callInfo/next/:id", async (request) => {
    const user = requireRole(caller(request), ["admin", "supervisor"], INSPECTORS_ONLY);
    const { id } = parseInput(IdParams, request.params);
    const next = await change(
      user,
      async (trx) => {
        const held = await nextLocked(trx, user.tenantId, viewerOf(user), id);
        if (held) return { row: held, claimed: false };
        const [claimed] = await applyForCalls(trx, user.tenantId, viewerOf(user), actorOf(user), 1);
        return {
          row: claimed === undefined ? null : ((await findInspection(trx, user.tenantId, viewerOf(user), claimed)) ?? null),
          claimed: true,
        };
      },
      ({ row, claimed }) => (claimed && row ? [row.callId] : []),
    );
    return ok<InspectionRow | null>(next.row);
  });

  app.get("/ccb/detail/:callId/:selectType", async (request) => {
    const user = caller(request);
    const { callId, selectType } = parseInput(DetailParams, request.params);
    const row = await findInspection(app.db, user.tenantId, viewerOf(user), callId);
    if (!row) throw new HttpError(404, "通话不存在");
    if (selectType === QC_DETAIL_TYPES.call) {
      const detail = await findCallDetail(app.db, { tenantId: user.tenantId }, callId);
      return ok(detail!);
    }
    const [evaluation, ...earlierEvaluations] = await findEvaluations(app.db, user.tenantId, callId);
    return ok<InspectionDetail>({
      row,
      appeal: (await findAppeal(app.db, user.tenantId, { callId })) ?? null,
      evaluation: evaluation ?? null,
      earlierEvaluations,
      history: await inspectionHistory(app.db, user.tenantId, callId),
    });
  });

  // The call-back calls made after a call: call kind 1 whose previous call is this one.
  app.post("/ccb/callback", async (request) => {
    const user = caller(request);
    const { callId } = parseInput(QcCallbackQuerySchema, request.body);
    const row = await findInspection(app.db, user.tenantId, viewerOf(user), callId);
    if (!row) throw new HttpError(404, "通话不存在");
    const callbacks = await app.db
      .selectFrom("call_records")
      .select("id")
      .where("tenant_id", "=", user.tenantId)
      .where("prev_cti_call_id", "=", row.ctiCallId)
      .where("call_kind", "=", 1)
      .orderBy("call_time", "desc")
      .limit(100)
      .execute();
    const list = [];
    for (const { id } of callbacks) {
      const found = await findInspection(app.db, user.tenantId, { id: user.id, role: "admin" }, Number(id));
      if (found) list.push(found);
    }
    return ok({ list, total: list.length });
  });

  app.get("/ccb/callBack/customerInfo/:id/:caseId", async (request) => {
    const user = caller(request);
    const { id, caseId } = parseInput(CustomerParams, request.params);
    const row = await findInspection(app.db, user.tenantId, viewerOf(user), id);
    if (!row || row.ctiCallId !== caseId) throw new HttpError(404, "通话不存在");
    const detail = await findCallDetail(app.db, callReaderOf({ tenantId: user.tenantId, id: user.id, role: "admin" }), id);
    const contact = await app.db
      .selectFrom("crm_contacts")
      .select(["id", "name"])
      .where("tenant_id", "=", user.tenantId)
      .where("phone", "=", row.phone.replace(/^(\+86|0086)/, ""))
      .executeTakeFirst();
    return ok({
      callId: id,
      phone: row.phone,
      customerName: contact?.name ?? null,
      gender: detail?.gender ?? -1,
      intent: row.intent,
      conclusion: typeof detail?.attachData.conclusion === "string" ? detail.attachData.conclusion : null,
      contactId: contact ? Number(contact.id) : null,
    });
  });

  app.post("/ccb/agent/performance", async (request) => {
    const user = caller(request);
    const query = parseInput(PerformanceQuerySchema, request.body);
    const list = await agentPerformance(app.db, user.tenantId, viewerOf(user), query);
    const queues = user.role === "agent" ? [] : await tenantQueues(app.db, user.tenantId);
    return ok({ list, total: list.length, queues });
  });

  // The queue: apply (claim the next N), order (claim these), reallot (lock to others), recovery.
  app.post("/ccb/tasks/apply", async (request) => {
    const user = requireRole(caller(request), ["admin", "supervisor"], INSPECTORS_ONLY);
    const { count } = parseInput(QcApplySchema, request.body);
    const ids = await change(
      user,
      (trx) => applyForCalls(trx, user.tenantId, viewerOf(user), actorOf(user), count),
      (claimed) => claimed,
    );
    return ok<QcBulkResult>(bulk(ids.map((callId) => ({ callId, ok: true, message: "已领取", inspectorId: user.id }))));
  });

  app.post("/ccb/tasks/order", async (request) => {
    const user = requireRole(caller(request), ["admin", "supervisor"], INSPECTORS_ONLY);
    const { ids } = parseInput(QcOrderSchema, request.body);
    const results = await change(
      user,
      async (trx) => {
        const scope = await scopeOf(trx, user.tenantId, viewerOf(user));
        return lockCalls(trx, user.tenantId, actorOf(user), ids, [{ id: user.id, name: user.realName, scope }], "order");
      },
      succeeded,
    );
    return ok<QcBulkResult>(bulk(results));
  });

  app.post("/ccb/tasks/reallot", async (request) => {
    const user = requireRole(caller(request), ["admin", "supervisor"], "仅主管或管理员可以改派质检");
    const { ids, inspectorIds, reason } = parseInput(QcReallotSchema, request.body);
    const results = await change(
      user,
      async (trx) => {
        const known = await listInspectors(trx, user.tenantId);
        const chosen = [];
        for (const inspectorId of inspectorIds) {
          const inspector = known.find((k) => k.id === inspectorId);
          if (!inspector) throw new InspectionRefused(404, "质检员不存在");
          chosen.push({ id: inspector.id, name: inspector.name, scope: await scopeOf(trx, user.tenantId, inspector as Viewer) });
        }
        return lockCalls(trx, user.tenantId, actorOf(user), ids, chosen, "reallot", reason);
      },
      succeeded,
    );
    return ok<QcBulkResult>(bulk(results));
  });

  app.post("/ccb/tasks/recovery", async (request) => {
    const user = requireRole(caller(request), ["admin", "supervisor"], "仅主管或管理员可以收回质检");
    const { ids, reason } = parseInput(QcRecoverySchema, request.body);
    const results = await change(user, (trx) => releaseCalls(trx, user.tenantId, actorOf(user), ids, reason), succeeded);
    return ok<QcBulkResult>(bulk(results));
  });

  // Appeals
  app.post("/ccb/appeal", async (request) => {
    const user = requireRole(caller(request), ["agent"], "只有坐席可以对自己的质检结果申诉");
    const { callId, reason } = parseInput(QcAppealSchema, request.body);
    return ok(
      await change(
        user,
        (trx) => appealResult(trx, user.tenantId, viewerOf(user), actorOf(user), callId, reason),
        (appeal) => [appeal.callId],
      ),
    );
  });

  app.post("/ccb/appeal/:id/decision", async (request) => {
    const user = requireRole(caller(request), ["admin", "supervisor"], "只有质检员或主管可以处理申诉");
    const { id } = parseInput(IdParams, request.params);
    const decision = parseInput(QcAppealDecisionSchema, request.body);
    return ok(
      await change(
        user,
        async (trx) => {
          // Accepting re-scores a call scored with a form: the next evaluation version (decision 033).
          const appeal = await findAppeal(trx, user.tenantId, { id });
          const revision =
            appeal && appeal.state === "pending" && decision.decision === "accepted"
              ? await checkRevision(trx, user.tenantId, appeal.callId, decision.evaluation?.answers)
              : null;
          const decided = await decideAppeal(trx, user.tenantId, viewerOf(user), actorOf(user), id, decision, revision);
          if (revision) {
            const form = { id: revision.current.formId, name: revision.current.formName };
            const revising = { version: revision.current.version + 1, reason: decision.reason, appealId: id };
            await saveEvaluation(trx, user.tenantId, decided.callId, user.id, { ...revision, form }, revising);
          }
          return decided;
        },
        (appeal) => [appeal.callId],
      ),
    );
  });

  // Scoring forms (decision 028): kept on 质检评分表, the administrators' screen (decision 044);
  // inspectors score with the active one.
  app.post("/ccb/form/list", async (request) => {
    const user = caller(request);
    const list = await listForms(app.db, user.tenantId);
    return ok({ list, total: list.length });
  });

  app.get("/ccb/form/active", async (request) => {
    const user = caller(request);
    return ok<ScoreForm | null>((await activeForm(app.db, user.tenantId)) ?? null);
  });

  app.get("/ccb/form/:id", async (request) => {
    const user = caller(request);
    const { id } = parseInput(IdParams, request.params);
    const form = await findForm(app.db, user.tenantId, id);
    if (!form) throw new HttpError(404, "评分表不存在");
    return ok<ScoreForm>(form);
  });

  app.post("/ccb/form", async (request) => {
    const user = caller(request);
    const input = parseInput(ScoreFormInputSchema, request.body);
    return ok<ScoreForm>(await change(user, (trx) => saveForm(trx, user.tenantId, actorOf(user), null, input)));
  });

  app.put("/ccb/form/:id", async (request) => {
    const user = caller(request);
    const { id } = parseInput(IdParams, request.params);
    const input = parseInput(ScoreFormInputSchema, request.body);
    return ok<ScoreForm>(await change(user, (trx) => saveForm(trx, user.tenantId, actorOf(user), id, input)));
  });

  app.put("/ccb/form/:id/state", async (request) => {
    const user = caller(request);
    const { id } = parseInput(IdParams, request.params);
    const { action, reason } = parseInput(ScoreFormStateSchema, request.body);
    return ok<ScoreForm>(await change(user, (trx) => changeFormState(trx, user.tenantId, actorOf(user), id, action, reason)));
  });

  app.delete("/ccb/form/:id", async (request) => {
    const user = caller(request);
    const { id } = parseInput(IdParams, request.params);
    await change(user, (trx) => deleteForm(trx, user.tenantId, actorOf(user), id));
    return ok({ id });
  });

  // Access: who may inspect which groups or campaigns.
  app.post("/ccb/access/list", async (request) => {
    const user = requireRole(caller(request), ["admin", "supervisor"], "无权查看质检权限");
    const { userId } = parseInput(QcAccessQuerySchema, request.body);
    const list = await listAccess(app.db, user.tenantId, userId);
    return ok({
      list,
      total: list.length,
      inspectors: await listInspectors(app.db, user.tenantId),
      queues: await tenantQueues(app.db, user.tenantId),
      campaigns: await listCampaignChoices(app.db, user.tenantId),
    });
  });

  app.post("/ccb/access/grant", async (request) => {
    const user = requireRole(caller(request), ["admin"], ADMIN_ONLY);
    const input = parseInput(QcAccessGrantSchema, request.body);
    return ok(
      await change(user, (trx) =>
        grantAccess(trx, user.tenantId, actorOf(user), input as { userId: number; scope: "queue" | "campaign"; value: string }),
      ),
    );
  });

  app.post("/ccb/access/revoke", async (request) => {
    const user = requireRole(caller(request), ["admin"], ADMIN_ONLY);
    const { id, reason } = parseInput(QcAccessRevokeSchema, request.body);
    await change(user, (trx) => revokeAccess(trx, user.tenantId, actorOf(user), id, reason));
    return ok({ id });
  });
};
