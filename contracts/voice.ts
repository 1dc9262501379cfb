import { z } from "zod";
import { envelope } from "./envelope";

/**
 * How the agent's softphone reaches the media (decision 036): real SIP over WebSocket with
 * short-lived credentials the platform issued for this agent, or the simulated media when the
 * platform has no SIP servers.
 */
export const SipAccessSchema = z.discriminatedUnion("mode", [
  z.object({ mode: z.literal("simulated") }),
  z.object({
    mode: z.literal("sip"),
    /** The SIP server's WebSocket (wss:// in production, behind TLS). */
    wsUrl: z.string(),
    /** The agent's SIP address, e.g. sip:t1u5@pbx.example.com. */
    uri: z.string(),
    /** `<expiry, unix seconds>:<sip user>` and base64(HMAC-SHA1(secret, username)): Kamailio's auth_ephemeral. */
    username: z.string(),
    password: z.string(),
    expiresAt: z.string(),
    /** STUN/TURN servers for the browser (none on loopback). */
    iceServers: z.array(
      z.object({ urls: z.union([z.string(), z.array(z.string())]), username: z.string().optional(), credential: z.string().optional() }),
    ),
    /** "relay": media only through the TURN relays above (agents whose network allows nothing else). */
    iceTransportPolicy: z.enum(["all", "relay"]),
  }),
]);
export type SipAccess = z.infer<typeof SipAccessSchema>;

/**
 * An agent's SIP user: unique across tenants, and nothing a caller could guess a colleague's
 * password from. Kamailio lets an agent call only another agent of its own tenant (decision 052),
 * which it reads from this form.
 */
export const sipUserOf = (tenantId: number, userId: number) => `t${tenantId}u${userId}`;
/** Whether a SIP user is an agent's (else: the customers' phone line). */
export const isAgentSipUser = (user: string) => /^t\d+u\d+$/.test(user);
export const SipAccessResponseSchema = envelope(SipAccessSchema);

/**
 * The workbench's pre-call test (decision 053): the platform's test call to the agent's softphone,
 * and what the media server recorded of the agent on it once it ended: the level of the agent's
 * voice (dBFS, null: nothing recorded) and that side as a mono WAV (base64), the loopback.
 */
export const PrecallStartSchema = z.object({ testId: z.string() });
export const PrecallStartResponseSchema = envelope(PrecallStartSchema);
export const PrecallResultSchema = z.object({
  done: z.boolean(),
  agentLevelDb: z.number().nullable(),
  audio: z.string().nullable(),
});
export type PrecallResult = z.infer<typeof PrecallResultSchema>;
export const PrecallResultResponseSchema = envelope(PrecallResultSchema);
