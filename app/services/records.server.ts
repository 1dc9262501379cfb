import { send, type Caller } from "./upstream.server";

/**
 * POST /records/records/{callId} with body { tenantID } (spec §7): a binary reply is the audio,
 * a JSON reply means the call has none (null here).
 */
export async function fetchRecording(caller: Caller, callId: number, tenantID: number, range?: string | null) {
  const response = await send({
    method: "POST",
    path: `/records/records/${callId}`,
    json: { tenantID },
    what: "获取录音",
    caller,
    timeoutMs: 30_000,
    headers: range ? { Range: range } : undefined,
  });
  const type = String(response.headers["content-type"] ?? "");
  if (type.includes("json")) {
    await response.body.dump();
    return null;
  }
  const header = (name: string) => {
    const value = response.headers[name];
    return typeof value === "string" ? value : undefined;
  };
  return {
    status: response.statusCode,
    body: response.body,
    type: type || "audio/mpeg",
    length: header("content-length"),
    range: header("content-range"),
  };
}
