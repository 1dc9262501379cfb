import type { FastifyPluginAsync } from "fastify";
import { parseInput } from "#upstream/http";
import { z } from "zod";
import { eventFrame, formatSse, HEARTBEAT_EVENT, type AgentEvent } from "#contracts/events";
import { HEARTBEAT_MS } from "#upstream/events/bus";
import { requireUser } from "#upstream/plugins/auth";

const StreamQuerySchema = z.object({ lastEventId: z.coerce.number().int().nonnegative().optional() });

/**
 * GET /events/api/stream — the caller's real-time events as Server-Sent Events. A client that
 * sends `Last-Event-ID` (or `?lastEventId=`) first receives every stored event after it, then
 * live ones, each exactly once and in order; without one it starts from now.
 */
export const eventRoutes: FastifyPluginAsync = async (app) => {
  app.get("/events/api/stream", async (request, reply) => {
    const user = requireUser(request);
    const header = request.headers["last-event-id"];
    const fromHeader = typeof header === "string" && /^\d+$/.test(header) ? Number(header) : undefined;
    const since = fromHeader ?? parseInput(StreamQuerySchema, request.query).lastEventId;

    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    });

    // Subscribe before reading the backlog, hold live events until it is sent, then drop any
    // the backlog already carried: nothing is lost between the two and nothing arrives twice.
    let sentUpTo = 0;
    let backlogSent = false;
    const held: AgentEvent[] = [];
    const send = (event: AgentEvent) => {
      if (event.id <= sentUpTo) return;
      sentUpTo = event.id;
      out.write(eventFrame(event));
    };
    const unsubscribe = app.events.subscribe(user.id, (event) => (backlogSent ? send(event) : held.push(event)));
    const heartbeat = setInterval(() => out.write(formatSse({ event: HEARTBEAT_EVENT, data: "" })), HEARTBEAT_MS);
    const close = () => {
      clearInterval(heartbeat);
      unsubscribe();
    };
    request.raw.on("close", close);

    try {
      out.write(formatSse({ event: HEARTBEAT_EVENT, data: "", retry: 2_000 }));
      if (since === undefined) sentUpTo = await app.events.latestId(user.id);
      else for (const event of await app.events.replay(user.id, since)) send(event);
      for (const event of held.sort((a, b) => a.id - b.id)) send(event);
      backlogSent = true;
    } catch (error) {
      request.log.error(error, "event stream failed");
      close();
      out.end();
    }
  });
};
