import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { z } from "zod";
import { eventFrame, formatSse, HEARTBEAT_EVENT, StreamScopeSchema, type RealtimeNotification } from "#contracts/events";
import { parseInput } from "#upstream/http";
import { HEARTBEAT_MS, subscriptionOf } from "#upstream/notifications/bus";
import { requireUser, streamEndsWithSession } from "#upstream/plugins/auth";
import { eventStreamsOpen } from "#upstream/observability/metrics";

/** How soon a client reconnects after a draining platform ended its stream. */
const DRAIN_RETRY_MS = 1_000;

const StreamQuerySchema = StreamScopeSchema.extend({ lastEventId: z.coerce.number().int().nonnegative().optional() });

/**
 * GET /events/api/stream — the caller's notifications as Server-Sent Events (`scope=tenant` for a
 * supervisor's view of the tenant, `queue=` for one queue). A client that sends `Last-Event-ID`
 * (or `?lastEventId=`) first receives every stored notification after it, then live ones, each
 * exactly once and in order; without one it starts from now. While the stream is open, the
 * caller's presence is kept (each heartbeat), which tells the monitor the client is alive.
 */
export const eventRoutes: FastifyPluginAsync = async (app) => {
  app.get("/events/api/stream", async (request: FastifyRequest, reply) => {
    const user = requireUser(request);
    const query = parseInput(StreamQuerySchema, request.query);
    const subscription = subscriptionOf(user, query);
    const header = request.headers["last-event-id"];
    const since = typeof header === "string" && /^\d+$/.test(header) ? Number(header) : query.lastEventId;

    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    });

    // Subscribe before reading the backlog, hold live notifications until it is sent, then drop
    // any the backlog already carried: nothing is lost between the two and nothing arrives twice.
    let sentUpTo = 0;
    let backlogSent = false;
    const held: RealtimeNotification[] = [];
    const send = (notification: RealtimeNotification) => {
      if (notification.id <= sentUpTo) return;
      sentUpTo = notification.id;
      out.write(eventFrame(notification));
    };
    const unsubscribe = app.notifications.subscribe(subscription, (n) => (backlogSent ? send(n) : held.push(n)));
    const heartbeat = setInterval(() => {
      out.write(formatSse({ event: HEARTBEAT_EVENT, data: "" }));
      app.notifications.keepPresent(user);
    }, HEARTBEAT_MS);
    // A stream checks its token once; revoking the token (sign-out, 强制下线, a password change) ends it.
    const unregister = streamEndsWithSession(app, request, user, () => {
      close();
      out.end();
    });
    // A draining platform ends the stream with a reconnect hint (observability/operations.ts).
    const drain = () => {
      out.write(formatSse({ event: HEARTBEAT_EVENT, data: "", retry: DRAIN_RETRY_MS }));
      close();
      out.end();
    };
    app.readiness.streams.add(drain);
    eventStreamsOpen.inc({ kind: subscription.kind });
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
      unregister();
      app.readiness.streams.delete(drain);
      eventStreamsOpen.dec({ kind: subscription.kind });
    };
    request.raw.on("close", close);

    try {
      out.write(formatSse({ event: HEARTBEAT_EVENT, data: "", retry: 2_000 }));
      void app.notifications.touchPresence(user).catch((error) => request.log.error(error, "recording presence failed"));
      if (since === undefined) {
        // From now: what was delivered since subscribing is held and goes out, even if the
        // cursor read here already counts it.
        const latest = await app.notifications.deliveredUpTo();
        sentUpTo = Math.min(latest, ...held.map((n) => n.id - 1));
      } else for (const notification of await app.notifications.replay(subscription, since)) send(notification);
      for (const notification of held.sort((a, b) => a.id - b.id)) send(notification);
      backlogSent = true;
    } catch (error) {
      request.log.error(error, "event stream failed");
      close();
      out.end();
    }
  });
};
