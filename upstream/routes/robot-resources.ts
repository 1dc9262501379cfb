import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import { ROBOT_SPEAKERS, WEEKDAYS, labelOf } from "#contracts/codes";
import {
  FestivalInputSchema,
  FestivalListQuerySchema,
  RegexTestInputSchema,
  RobotRegexInputSchema,
  RobotRegexListQuerySchema,
  DISPATCH_DAYS,
  StoreQuerySchema,
  VoicePreviewQuerySchema,
  WorkingCalendarInputSchema,
  type RegexTestResult,
  type RobotSpeaker,
  type TaskDispatch,
  type WorkingCalendar,
} from "#contracts/robot-resources";
import { cstDate } from "#common/china-time";
import { dispatchDays } from "#upstream/domain/dispatch-plan";
import { RegexTimeout, matchSample } from "#upstream/domain/regex-test";
import { previewWav } from "#upstream/domain/voice-preview";
import { HttpError, ok, parseInput } from "#upstream/http";
import { requireUser } from "#upstream/plugins/auth";
import { changeAs } from "#upstream/repositories/audit-log";
import {
  createFestival,
  createRegex,
  deleteFestival,
  deleteRegex,
  findRegex,
  findCampaignSchedule,
  listFestivals,
  listGatewayLines,
  listRegexes,
  listStore,
  readWorkingWeek,
  saveWorkingWeek,
  updateFestival,
  updateRegex,
} from "#upstream/repositories/robot-resources";

const IdParamsSchema = z.object({
  id: z.coerce.number({ invalid_type_error: "编号无效" }).int("编号无效").positive("编号无效").max(Number.MAX_SAFE_INTEGER, "编号无效"),
});

const weekText = (days: WorkingCalendar["days"]) =>
  days.map((d) => `${labelOf(WEEKDAYS, d.weekday)} ${d.enabled ? `${d.start}-${d.end}` : "休息"}`).join("，");

/**
 * The resources a robot uses (endpoints.md A rows, decision 030): regular expressions, the working
 * and festival calendars, speakers and their preview, gateway lines, the store. Administrators
 * only (their menus, decision 044); every change writes its audit row in its transaction.
 */
export const robotResourceRoutes: FastifyPluginAsync = async (app) => {
  // Regular expressions
  app.get("/robot/api/regex", async (request) => {
    const user = requireUser(request);
    return ok(await listRegexes(app.db, user.tenantId, parseInput(RobotRegexListQuerySchema, request.query)));
  });

  app.get("/robot/api/regex/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    return ok(await findRegex(app.db, user.tenantId, id));
  });

  app.post("/robot/api/regex", async (request) => {
    const user = requireUser(request);
    const input = parseInput(RobotRegexInputSchema, request.body);
    return ok(
      await changeAs(app.db, user, async (trx) => {
        const created = await createRegex(trx, user.tenantId, user.realName, input);
        return {
          result: created,
          audit: {
            action: "robot.regex.create",
            target: { type: "robotRegex", id: created.id },
            summary: `新建正则表达式「${created.name}」：${created.pattern}`,
          },
        };
      }),
    );
  });

  app.put("/robot/api/regex/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const input = parseInput(RobotRegexInputSchema, request.body);
    return ok(
      await changeAs(app.db, user, async (trx) => {
        const { before, after } = await updateRegex(trx, user.tenantId, id, user.realName, input);
        return {
          result: after,
          audit: {
            action: "robot.regex.update",
            target: { type: "robotRegex", id },
            summary: `编辑正则表达式「${after.name}」：${after.pattern}`,
            detail: { before, after },
          },
        };
      }),
    );
  });

  app.delete("/robot/api/regex/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    await changeAs(app.db, user, async (trx) => {
      const gone = await deleteRegex(trx, user.tenantId, id);
      return {
        result: null,
        audit: {
          action: "robot.regex.delete",
          target: { type: "robotRegex", id },
          summary: `删除正则表达式「${gone.name}」`,
          detail: { gone },
        },
      };
    });
    return ok({ id });
  });

  app.post("/robot/api/regex/test", async (request) => {
    const { pattern, sample } = parseInput(RegexTestInputSchema, request.body);
    try {
      return ok<RegexTestResult>({ matches: matchSample(pattern, sample) });
    } catch (error) {
      if (error instanceof RegexTimeout) throw new HttpError(400, "匹配超时：该表达式回溯过多，请简化（例如避免嵌套的重复）");
      throw error;
    }
  });

  // The working calendar: the whole week, read and replaced at once.
  app.get("/robot/api/dispatch/working", async (request) => {
    const user = requireUser(request);
    return ok<WorkingCalendar>({ days: await readWorkingWeek(app.db, user.tenantId) });
  });

  app.put("/robot/api/dispatch/working", async (request) => {
    const user = requireUser(request);
    const { days } = parseInput(WorkingCalendarInputSchema, request.body);
    const sorted = [...days].sort((a, b) => a.weekday - b.weekday);
    return ok<WorkingCalendar>(
      await changeAs(app.db, user, async (trx) => {
        const { before, after } = await saveWorkingWeek(trx, user.tenantId, sorted);
        return {
          result: { days: after },
          audit: {
            action: "robot.working",
            target: { type: "robotCalendar", id: null },
            summary: `修改工作日历：${weekText(after)}`,
            detail: { before, after },
          },
        };
      }),
    );
  });

  // Festivals: date ranges when the robots do not call; overlapping ranges are refused.
  app.get("/robot/api/dispatch/festival", async (request) => {
    const user = requireUser(request);
    const { year } = parseInput(FestivalListQuerySchema, request.query);
    return ok(await listFestivals(app.db, user.tenantId, year));
  });

  app.post("/robot/api/dispatch/festival", async (request) => {
    const user = requireUser(request);
    const input = parseInput(FestivalInputSchema, request.body);
    return ok(
      await changeAs(app.db, user, async (trx) => {
        const created = await createFestival(trx, user.tenantId, input);
        return {
          result: created,
          audit: {
            action: "robot.festival.create",
            target: { type: "robotFestival", id: created.id },
            summary: `新建节假日「${created.name}」${created.startDate} 至 ${created.endDate}`,
          },
        };
      }),
    );
  });

  app.put("/robot/api/dispatch/festival/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const input = parseInput(FestivalInputSchema, request.body);
    return ok(
      await changeAs(app.db, user, async (trx) => {
        const { before, after } = await updateFestival(trx, user.tenantId, id, input);
        return {
          result: after,
          audit: {
            action: "robot.festival.update",
            target: { type: "robotFestival", id },
            summary: `编辑节假日「${after.name}」${after.startDate} 至 ${after.endDate}`,
            detail: { before, after },
          },
        };
      }),
    );
  });

  app.delete("/robot/api/dispatch/festival/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    await changeAs(app.db, user, async (trx) => {
      const gone = await deleteFestival(trx, user.tenantId, id);
      return {
        result: null,
        audit: {
          action: "robot.festival.delete",
          target: { type: "robotFestival", id },
          summary: `删除节假日「${gone.name}」${gone.startDate} 至 ${gone.endDate}`,
        },
      };
    });
    return ok({ id });
  });

  // Speakers and their preview.
  app.get("/robot/api/robot/speaker", async () => {
    return ok<{ list: RobotSpeaker[] }>({
      list: ROBOT_SPEAKERS.map((s) => ({
        code: s.code,
        name: s.label,
        gender: s.gender,
        style: s.style,
        previewText: `您好，我是${s.label}，很高兴为您服务。`,
      })),
    });
  });

  app.get("/config/agent/voice/preview", async (request, reply) => {
    const { speaker } = parseInput(VoicePreviewQuerySchema, request.query);
    const { pitch } = ROBOT_SPEAKERS.find((s) => s.code === speaker)!;
    return reply.header("Content-Type", "audio/wav").header("Cache-Control", "private, max-age=86400").send(previewWav(pitch));
  });

  // A task's dispatch: when the campaign's robots may call over the next days, by the calendars.
  app.get("/task/api/dispatch/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const campaign = await findCampaignSchedule(app.db, user.tenantId, id);
    if (!campaign) throw new HttpError(404, "外呼活动不存在");
    const [week, festivals] = await Promise.all([readWorkingWeek(app.db, user.tenantId), listFestivals(app.db, user.tenantId)]);
    return ok<TaskDispatch>({
      campaignId: campaign.id,
      campaignName: campaign.name,
      days: dispatchDays(cstDate(new Date()), DISPATCH_DAYS, week, festivals.list, campaign),
    });
  });

  // The store: the tenant's versions published to the market.
  app.get("/robot/api/store", async (request) => {
    const user = requireUser(request);
    return ok(await listStore(app.db, user.tenantId, parseInput(StoreQuerySchema, request.query)));
  });

  // Gateway lines the tenant's robots dial out on.
  app.get("/dialer/api/v1/gateway/line/robot", async (request) => {
    const user = requireUser(request);
    const list = await listGatewayLines(app.db, user.tenantId);
    return ok({ list, total: list.length });
  });
};
