/** Where the platform's media layer reaches its SIP servers (scripts/voice-servers.mjs sets these; decision 036). */
export type VoiceSettings = {
  /** The WebSocket the agents' browsers register on (wss:// behind TLS in production). */
  wsUrl: string;
  /** The SIP domain agents register in, host[:port]. */
  domain: string;
  /** The secret shared with Kamailio's auth_ephemeral: the platform signs credentials with it. */
  secret: string;
  /** How long issued credentials stay valid. */
  credentialSeconds: number;
  /** baresip's control socket (the simulated customers' phone line), host:port. */
  customerControl: string;
  /** rtpengine's control port (ng protocol), host:port, watched so a media server that stops ends its calls cleanly. */
  mediaControl: string | null;
  /** Where rtpengine writes its recordings (pcap). */
  recordingsDir: string;
  /** STUN/TURN servers handed to browsers (VOICE_ICE_SERVERS, JSON), none on loopback. */
  iceServers: Array<{ urls: string | string[]; username?: string; credential?: string }>;
  /** "relay" (VOICE_ICE_TRANSPORT_POLICY): browsers send media only through the TURN relays of iceServers. */
  iceTransportPolicy: "all" | "relay";
};

/** The voice settings from the environment, or null: the simulated media. */
export function readVoiceSettings(env: Record<string, string | undefined>): VoiceSettings | null {
  const { VOICE_SIP_WS_URL: wsUrl, VOICE_SIP_DOMAIN: domain, VOICE_SIP_SECRET: secret, VOICE_CUSTOMER_CONTROL: customerControl } = env;
  if (!wsUrl || !domain || !secret || !customerControl) return null;
  return {
    wsUrl,
    domain,
    secret,
    credentialSeconds: Math.max(300, Number(env.VOICE_CREDENTIAL_SECONDS) || 3_600),
    customerControl,
    mediaControl: env.VOICE_MEDIA_CONTROL || null,
    recordingsDir: env.VOICE_RECORDINGS_DIR ?? "",
    iceServers: env.VOICE_ICE_SERVERS ? (JSON.parse(env.VOICE_ICE_SERVERS) as VoiceSettings["iceServers"]) : [],
    iceTransportPolicy: env.VOICE_ICE_TRANSPORT_POLICY === "relay" ? "relay" : "all",
  };
}
