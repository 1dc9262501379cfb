import type { FastifyInstance, FastifyRequest } from "fastify";
import { request as undiciRequest } from "undici";
import type { Ownership } from "./ownership";

/**
 * The routes that read or change what only the owner holds in memory (decision 037): the CTI's
 * phones and calls (and the monitor's views of them), and the dialer's clock and hand-offs. Any
 * other route reads the database and is answered by whichever process the request reached.
 */
const OWNER_ROUTES = new Set([
  "PUT /config/agents/:id",
  "POST /crm/api/user/:id/logout",
  "GET /analysis/monitor/listen/:agentUserId",
  "POST /analysis/monitor/agent",
  "POST /analysis/monitor/group",
  "POST /analysis/monitor/whisper",
  "PUT /analysis/monitor/rules",
  "POST /config/agents/forced/logout",
  "POST /config/agents/state",
  "PUT /config/agents/change",
  "PUT /config/agent/auto/answer",
  "POST /outbound/preview/dial",
  "POST /outbound/simulator/tick",
  "POST /crm_v2/contacts/v1/outbound",
  "POST /api/file/upload",
]);

export function needsOwner(method: string, routePath: string): boolean {
  return routePath.startsWith("/cti/") || OWNER_ROUTES.has(`${method} ${routePath}`);
}

/** Marks a forwarded request: it is answered where it arrives, never forwarded again. */
const FORWARDED = "x-switchboard-forwarded";
/** What a user reads while the owner is being replaced (the console shows it as is). */
export const TAKE_OVER_MESSAGE = "电话服务正在切换，请稍后重试";
/** The request headers the owner needs; the rest (hop-by-hop, lengths) undici sets itself. */
const PASSED_ON = ["authorization", "accesstoken", "content-type", "x-client-address", "last-event-id", "customerid", "userid"];

/**
 * A request for the owner's memory that reached another process is sent on to the owner, body as
 * it arrives, and its answer is sent back as it comes; while nobody owns, or the owner does not
 * answer, the answer is 503 with a Chinese retry message. Runs after the credential check, so
 * nothing unauthenticated is forwarded.
 */
export function forwardToOwner(app: FastifyInstance, ownership: Ownership): void {
  app.addHook("onRequest", async (request, reply) => {
    const routePath = request.routeOptions.url;
    if (routePath === undefined || ownership.isOwner() || !needsOwner(request.method, routePath)) return;
    if (request.headers[FORWARDED]) return reply.code(503).send({ code: 503, msg: TAKE_OVER_MESSAGE });
    const owner = await ownership.ownerUrl().catch(() => null);
    if (!owner) return reply.code(503).send({ code: 503, msg: TAKE_OVER_MESSAGE });
    try {
      const answer = await undiciRequest(`${owner}${request.url}`, {
        method: request.method as "GET",
        headers: { ...passedOn(request), [FORWARDED]: ownership.selfUrl },
        body: request.method === "GET" || request.method === "HEAD" ? undefined : request.raw,
        signal: AbortSignal.timeout(60_000),
      });
      const type = answer.headers["content-type"];
      if (typeof type === "string") reply.header("content-type", type);
      return reply.code(answer.statusCode).send(answer.body);
    } catch (error) {
      request.log.warn(error, "forwarding to the CTI's owner failed");
      ownership.forgetOwner();
      return reply.code(503).send({ code: 503, msg: TAKE_OVER_MESSAGE });
    }
  });
}

function passedOn(request: FastifyRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of PASSED_ON) {
    const value = request.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  return headers;
}
