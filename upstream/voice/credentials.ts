import { createHmac } from "node:crypto";
import { sipUserOf, type SipAccess } from "#contracts/voice";
import type { VoiceSettings } from "./settings";

/**
 * Short-lived SIP credentials for one agent, in the form Kamailio's auth_ephemeral checks: the
 * username is `<expiry>:<sip user>` and the password base64(HMAC-SHA1(secret, username)). No
 * password is stored anywhere; Kamailio refuses them after the expiry and for any other user.
 */
export function issueSipAccess(settings: VoiceSettings, tenantId: number, userId: number, now = Date.now()): SipAccess {
  const expires = Math.floor(now / 1000) + settings.credentialSeconds;
  const user = sipUserOf(tenantId, userId);
  const username = `${expires}:${user}`;
  return {
    mode: "sip",
    wsUrl: settings.wsUrl,
    uri: `sip:${user}@${settings.domain}`,
    username,
    password: createHmac("sha1", settings.secret).update(username).digest("base64"),
    expiresAt: new Date(expires * 1000).toISOString(),
    iceServers: settings.iceServers,
    iceTransportPolicy: settings.iceTransportPolicy,
  };
}
