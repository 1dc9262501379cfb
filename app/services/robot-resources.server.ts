import {
  FestivalListResponseSchema,
  FestivalResponseSchema,
  GatewayLineListResponseSchema,
  RegexTestResponseSchema,
  RobotRegexPageResponseSchema,
  RobotRegexResponseSchema,
  RobotSpeakerListResponseSchema,
  StorePageResponseSchema,
  TaskDispatchResponseSchema,
  type StoreQuery,
  WorkingCalendarResponseSchema,
  type FestivalInput,
  type RobotRegexInput,
  type RobotRegexListQuery,
  type WorkingDay,
} from "#contracts/robot-resources";
import { envelope } from "#contracts/envelope";
import { z } from "zod";
import { call, requireData, send, type Caller } from "./upstream.server";

/* The resources a robot uses (decision 030): administrators' endpoints of the robot service. */

const Done = envelope(z.unknown());

export async function listRegexes(caller: Caller, query: RobotRegexListQuery) {
  const answer = await call({ path: "/robot/api/regex", query, schema: RobotRegexPageResponseSchema, what: "获取正则表达式", caller });
  return requireData(answer, "获取正则表达式");
}

export async function getRegex(caller: Caller, id: number) {
  const answer = await call({ path: `/robot/api/regex/${id}`, schema: RobotRegexResponseSchema, what: "获取正则表达式", caller });
  return requireData(answer, "获取正则表达式");
}

/** Creates (id null) or replaces a regular expression. */
export async function saveRegex(caller: Caller, id: number | null, input: RobotRegexInput) {
  const answer = await call({
    method: id === null ? "POST" : "PUT",
    path: id === null ? "/robot/api/regex" : `/robot/api/regex/${id}`,
    json: input,
    schema: RobotRegexResponseSchema,
    what: "保存正则表达式",
    caller,
  });
  return requireData(answer, "保存正则表达式");
}

export async function deleteRegex(caller: Caller, id: number) {
  await call({ method: "DELETE", path: `/robot/api/regex/${id}`, schema: Done, what: "删除正则表达式", caller });
}

export async function testRegex(caller: Caller, pattern: string, sample: string) {
  const answer = await call({
    method: "POST",
    path: "/robot/api/regex/test",
    json: { pattern, sample },
    schema: RegexTestResponseSchema,
    what: "测试正则表达式",
    caller,
  });
  return requireData(answer, "测试正则表达式").matches;
}

export async function getWorkingWeek(caller: Caller) {
  const answer = await call({ path: "/robot/api/dispatch/working", schema: WorkingCalendarResponseSchema, what: "获取工作日历", caller });
  return requireData(answer, "获取工作日历").days;
}

export async function saveWorkingWeek(caller: Caller, days: WorkingDay[]) {
  const answer = await call({
    method: "PUT",
    path: "/robot/api/dispatch/working",
    json: { days },
    schema: WorkingCalendarResponseSchema,
    what: "保存工作日历",
    caller,
  });
  return requireData(answer, "保存工作日历").days;
}

export async function listFestivals(caller: Caller) {
  const answer = await call({ path: "/robot/api/dispatch/festival", schema: FestivalListResponseSchema, what: "获取节假日", caller });
  return requireData(answer, "获取节假日").list;
}

/** Creates (id null) or replaces a festival. */
export async function saveFestival(caller: Caller, id: number | null, input: FestivalInput) {
  const answer = await call({
    method: id === null ? "POST" : "PUT",
    path: id === null ? "/robot/api/dispatch/festival" : `/robot/api/dispatch/festival/${id}`,
    json: input,
    schema: FestivalResponseSchema,
    what: "保存节假日",
    caller,
  });
  return requireData(answer, "保存节假日");
}

export async function deleteFestival(caller: Caller, id: number) {
  await call({ method: "DELETE", path: `/robot/api/dispatch/festival/${id}`, schema: Done, what: "删除节假日", caller });
}

export async function listSpeakers(caller: Caller) {
  const answer = await call({ path: "/robot/api/robot/speaker", schema: RobotSpeakerListResponseSchema, what: "获取发音人", caller });
  return requireData(answer, "获取发音人").list;
}

/** GET /config/agent/voice/preview?speaker=: a short WAV, small enough to hold whole. */
export async function fetchVoicePreview(caller: Caller, speaker: string) {
  const response = await send({ path: "/config/agent/voice/preview", query: { speaker }, what: "获取试听音频", caller });
  return { type: String(response.headers["content-type"] ?? "audio/wav"), bytes: Buffer.from(await response.body.arrayBuffer()) };
}

export async function listGatewayLines(caller: Caller) {
  const answer = await call({ path: "/dialer/api/v1/gateway/line/robot", schema: GatewayLineListResponseSchema, what: "获取线路", caller });
  return requireData(answer, "获取线路").list;
}

export async function listStore(caller: Caller, query: StoreQuery) {
  const answer = await call({ path: "/robot/api/store", query, schema: StorePageResponseSchema, what: "获取流程市场", caller });
  return requireData(answer, "获取流程市场");
}

/** GET /task/api/dispatch/{id}: when the campaign's robots may call over the next days. */
export async function getTaskDispatch(caller: Caller, campaignId: number) {
  const answer = await call({ path: `/task/api/dispatch/${campaignId}`, schema: TaskDispatchResponseSchema, what: "获取拨打时段", caller });
  return requireData(answer, "获取拨打时段");
}
