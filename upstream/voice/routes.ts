import type { FastifyInstance } from "fastify";
import type { SipAccess } from "#contracts/voice";
import { ok } from "#upstream/http";
import { requireUser } from "#upstream/plugins/auth";
import { issueSipAccess } from "./credentials";
import { startSipMedia } from "./media";
import type { VoiceSettings } from "./settings";

/**
 * Real voice (decision 036): `GET /cti/api/agent/sip` gives a signed-in agent short-lived SIP
 * credentials for their softphone, or says the media is simulated; with SIP servers, the media
 * layer follows the CTI's calls from the moment the platform is ready until it closes.
 */
export function voice(app: FastifyInstance, settings: VoiceSettings | null): void {
  app.get("/cti/api/agent/sip", async (request) => {
    const user = requireUser(request);
    // Only agents get a phone (the CTI refuses anybody else in Chinese).
    await app.cti.status({ id: user.id, tenantId: user.tenantId });
    return ok<SipAccess>(settings ? issueSipAccess(settings, user.tenantId, user.id) : { mode: "simulated" });
  });
  if (!settings) return;
  let media: ReturnType<typeof startSipMedia> | null = null;
  app.addHook("onReady", async () => {
    media = startSipMedia(app, settings);
  });
  app.addHook("onClose", async () => media?.stop());
}
