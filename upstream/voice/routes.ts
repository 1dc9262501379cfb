import type { FastifyInstance } from "fastify";
import type { SipAccess } from "#contracts/voice";
import { z } from "zod";
import { HttpError, ok, parseInput } from "#upstream/http";
import { requireUser } from "#upstream/plugins/auth";
import { issueSipAccess } from "./credentials";
import { startSipMedia } from "./media";
import { precallRoutes } from "./precall";
import type { VoiceSettings } from "./settings";

const CallParamsSchema = z.object({ ctiCallId: z.string().min(1).max(100) });

/**
 * Real voice (decision 036): `GET /cti/api/agent/sip` gives a signed-in agent short-lived SIP
 * credentials for their softphone, or says the media is simulated; with SIP servers, the media
 * layer follows the CTI's calls from the moment the platform is ready until it closes.
 */
export function voice(app: FastifyInstance, settings: VoiceSettings | null, simulatorControl: boolean): void {
  app.get("/cti/api/agent/sip", async (request) => {
    const user = requireUser(request);
    // Only agents get a phone (the CTI refuses anybody else in Chinese).
    await app.cti.status({ id: user.id, tenantId: user.tenantId });
    return ok<SipAccess>(settings ? issueSipAccess(settings, user.tenantId, user.id) : { mode: "simulated" });
  });
  let media: ReturnType<typeof startSipMedia> | null = null;
  precallRoutes(app, () => media?.testCalls ?? null);
  if (!settings) return;
  app.addHook("onReady", async () => {
    media = startSipMedia(app, settings);
  });
  app.addHook("onClose", async () => media?.stop());
  // Tests hear the customer's side (SIMULATOR_CONTROL=1): the recorded audio of a call's last connected leg…
  if (simulatorControl) {
    app.get("/cti/simulator/call/:ctiCallId/audio", async (request, reply) => {
      requireUser(request);
      const { ctiCallId } = parseInput(CallParamsSchema, request.params);
      const wav = await media?.recording(ctiCallId);
      if (!wav) throw new HttpError(404, "该通话还没有录音");
      return reply.header("Content-Type", "audio/wav").send(wav);
    });
    // …and the keys the customer's phone heard on a call.
    app.get("/cti/simulator/call/:ctiCallId/keys", async (request) => {
      requireUser(request);
      const { ctiCallId } = parseInput(CallParamsSchema, request.params);
      return ok({ keys: media?.heardKeys(ctiCallId) ?? "" });
    });
  }
}
