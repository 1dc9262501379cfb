import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAccess } from "#app/server/access.server";
import { NO_RECORDING_TEXT } from "#app/lib/call-detail";
import { fetchRecording } from "#app/services/records.server";
import { relayBody } from "#app/server/relay.server";

/**
 * The recording of a call, streamed from the platform (POST /records/records/{callId} with the
 * caller's tenant) so the browser never calls the platform. `?download=1` makes it a download;
 * a call without audio answers 404 with '暂无录音可下载'.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { caller, user } = await requireAccess(request);
  const callId = Number(params.id);
  const noAudio = () => new Response(NO_RECORDING_TEXT, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  if (!/^\d{1,15}$/.test(params.id ?? "") || !Number.isSafeInteger(callId) || callId <= 0) return noAudio();
  // A Range (the player seeking in a long recording) is passed on; the platform sends those bytes.
  const recording = await fetchRecording(caller, callId, user.tenantId, request.headers.get("Range"));
  if (!recording) return noAudio();
  // Never stored: a cached copy would outlive sign-out and be served to the next user of the browser.
  const headers = new Headers({ "Content-Type": recording.type, "Cache-Control": "no-store", "Accept-Ranges": "bytes" });
  if (recording.length) headers.set("Content-Length", recording.length);
  if (recording.range) headers.set("Content-Range", recording.range);
  if (new URL(request.url).searchParams.get("download") === "1")
    headers.set("Content-Disposition", `attachment; filename="recording-${callId}.mp3"`);
  return new Response(relayBody(recording.body), { status: recording.status, headers });
}
