import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAccess } from "#app/server/access.server";
import { fetchVoicePreview } from "#app/services/robot-resources.server";

/**
 * A speaker's preview (GET /config/agent/voice/preview?speaker=), relayed so the browser never
 * calls the platform; the page's plain <audio controls> plays it. An unknown speaker is the
 * platform's 400 in Chinese.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const code = params.code ?? "";
  if (!/^[a-z0-9_-]{1,32}$/.test(code))
    return new Response("发音人不存在", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const preview = await fetchVoicePreview(caller, code);
  return new Response(preview.bytes, {
    headers: { "Content-Type": preview.type, "Content-Length": String(preview.bytes.length), "Cache-Control": "private, max-age=3600" },
  });
}
