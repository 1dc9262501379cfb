import { send, type Caller } from "./upstream.server";

/**
 * POST /records/records/{callId} with body { tenantID } (spec §7): a binary reply is the audio,
 * a JSON reply means the call has none (null here).
 */
export async function fetchRecording(caller: Caller, callId: number, tenantID: number) {
  const response = await send({
    method: "POST",
    path: `/records/records/${callId}`,
    json: { tenantID },
    what: "获取录音",
    caller,
    timeoutMs: 30_000,
  });
  const type = String(response.headers["content-type"] ?? "");
  if (type.includes("json")) {
    await response.body.dump();
    return null;
  }
  return { body: response.body, type: type || "audio/mpeg", length: response.headers["content-length"] };
}
