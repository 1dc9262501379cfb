import { z } from "zod";
import { envelope } from "./envelope";

/**
 * POST /records/records/{callId} with body { tenantID }: the call's recording as binary audio;
 * a JSON reply (this envelope, data null) means the call has none (spec §7).
 */
export const RecordingRequestSchema = z.object({ tenantID: z.coerce.number().int().positive() });
export const NoRecordingResponseSchema = envelope(z.null());
