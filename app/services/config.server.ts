import {
  AgentConfigResponseSchema,
  AgentPageResponseSchema,
  AgentResponseSchema,
  CallerIdNumbersResponseSchema,
  CustomerResponseSchema,
  LogoResponseSchema,
  QueueListResponseSchema,
  type AgentListQuery,
  type AgentUpdate,
  type BrandKey,
} from "#contracts/config";
import { call, requireData, type Caller } from "./upstream.server";

/** GET /config/logo — public; a failure leaves the page without a logo rather than failing it. */
export async function getLogo(brand: BrandKey): Promise<string | null> {
  try {
    const answer = await call({
      path: "/config/logo",
      query: { brand },
      schema: LogoResponseSchema,
      what: "获取标志",
      caller: null,
      timeoutMs: 2_000,
    });
    return answer.data?.logo ?? null;
  } catch {
    return null;
  }
}

/** GET /config/agents/detail/{id} — spec §3 agent config (workType, agentId, defaultQueueName). */
export async function getAgentConfig(caller: Caller, userId: number) {
  const answer = await call({ path: `/config/agents/detail/${userId}`, schema: AgentConfigResponseSchema, what: "获取坐席配置", caller });
  return requireData(answer, "获取坐席配置");
}

export async function getCustomer(caller: Caller) {
  const answer = await call({ path: "/config/api/customer", schema: CustomerResponseSchema, what: "获取客户信息", caller });
  return requireData(answer, "获取客户信息");
}

/** GET /config/tenants/{id}/callerIdNumbers: the caller numbers of the user's tenant. */
export async function listCallerIdNumbers(caller: Caller) {
  const { tenantId } = await getCustomer(caller);
  const answer = await call({
    path: `/config/tenants/${tenantId}/callerIdNumbers`,
    schema: CallerIdNumbersResponseSchema,
    what: "获取主叫号码",
    caller,
  });
  return requireData(answer, "获取主叫号码");
}

/** GET /config/queues/list — the tenant's queues. */
export async function listQueues(caller: Caller) {
  return requireData(await call({ path: "/config/queues/list", schema: QueueListResponseSchema, what: "获取队列", caller }), "获取队列")
    .list;
}

/* Agent administration (坐席配置, decision 031): administrators only. */

/** GET /config/agents/list — the tenant's agents, filtered, a page. */
export async function listAgents(caller: Caller, query: AgentListQuery) {
  return requireData(
    await call({ path: "/config/agents/list", query, schema: AgentPageResponseSchema, what: "获取坐席列表", caller }),
    "获取坐席列表",
  );
}

/** GET /config/agents/{id} — one agent of the tenant (404 for another tenant's). */
export async function getAgent(caller: Caller, id: number) {
  return requireData(
    await call({ path: `/config/agents/${id}`, schema: AgentResponseSchema, what: "获取坐席配置", caller }),
    "获取坐席配置",
  );
}

/** PUT /config/agents/{id} — the agent's type, 工号 and default queue, with the reason. */
export async function updateAgent(caller: Caller, id: number, change: AgentUpdate) {
  const answer = await call({
    method: "PUT",
    path: `/config/agents/${id}`,
    json: change,
    schema: AgentResponseSchema,
    what: "保存坐席配置",
    caller,
  });
  return requireData(answer, "保存坐席配置");
}
