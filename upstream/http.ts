import { createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import type { FastifyRequest } from "fastify";
import type { z } from "zod";
import { SUCCESS_CODE, type Failure } from "#contracts/envelope";
import type { UploadLimit } from "#contracts/uploads";
import { Refused, type RefusalStatus } from "#upstream/domain/refused";

/** The success envelope (endpoints.md): `{ code: 1, data, msg: "success" }`. */
export type Envelope<T> = { code: typeof SUCCESS_CODE; data: T; msg: string };

/** Wraps a handler's result; the type argument is the contract's data type, so shapes are checked. */
export function ok<T>(data: T): Envelope<T> {
  return { code: SUCCESS_CODE, data, msg: "success" };
}

export type FailureStatus = RefusalStatus | 500;

/** The Chinese message for each failure status when the thrower has nothing more specific. */
export const FAILURE_MESSAGES: Record<FailureStatus, string> = {
  400: "请求参数错误",
  401: "登录已失效，请重新登录",
  403: "无权访问",
  404: "接口不存在",
  409: "操作与当前状态冲突，请刷新后重试",
  429: "请求过于频繁，请稍后重试",
  500: "服务器内部错误",
};

/** A refusal of a route or the HTTP layer (bad input, no session, not found), its message the status's own unless given. */
export class HttpError extends Refused {
  constructor(status: RefusalStatus, message: string = FAILURE_MESSAGES[status]) {
    super(status, message);
    this.name = "HttpError";
  }
}

export function failure(statusCode: FailureStatus, msg: string = FAILURE_MESSAGES[statusCode]): Failure {
  return { code: statusCode, msg };
}

/** A NUL character anywhere in the input: no text column can store it, no user types it. */
function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (depth > 8 || value === null || typeof value !== "object") return false;
  return Object.entries(value).some(([key, item]) => key.includes("\u0000") || holdsNul(item, depth + 1));
}

/**
 * The one way a route reads its input (params, query, body): parsed with its zod schema, or a 400
 * whose message is the first problem, in Chinese (common/zod-chinese.ts).
 */
export function parseInput<S extends z.ZodTypeAny>(schema: S, value: unknown): z.infer<S> {
  if (holdsNul(value)) throw new HttpError(400, "请求参数包含无效字符");
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw new HttpError(400, parsed.error.issues[0]?.message ?? FAILURE_MESSAGES[400]);
  return parsed.data;
}

/** An uploaded file kept on disk while it is read; `remove` lets it go (the route's job, once read). */
export type SpooledFile = { name: string; path: string; size: number; remove: () => Promise<void> };

/** @fastify/multipart's options for a route of `readSpreadsheetUpload`: one file within `limit`, a few fields. */
export const spreadsheetMultipart = (limit: UploadLimit) => ({ limits: { fileSize: limit.bytes, files: 1, fields: 5 } });

/**
 * A multipart form carrying one CSV or XLSX file (the imports): its text fields, and the file
 * written to a temporary file as it arrives, so the platform never holds an upload whole in memory.
 * A refused upload is removed here and is a 400 in Chinese. `limit` is the one the route
 * registered @fastify/multipart with (`spreadsheetMultipart`).
 */
export async function readSpreadsheetUpload(
  request: FastifyRequest,
  limit: UploadLimit,
): Promise<{ fields: Record<string, string>; file: SpooledFile }> {
  if (!request.isMultipart()) throw new HttpError(400, "请以 multipart 表单上传文件");
  const tooLarge = () => new HttpError(400, limit.message);
  const fields: Record<string, string> = {};
  let file: SpooledFile | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === "file") {
        if (!part.filename) {
          part.file.resume(); // a file input left empty
          continue;
        }
        if (!/\.(csv|xlsx)$/i.test(part.filename)) throw new HttpError(400, "只支持 CSV 或 XLSX 文件");
        const directory = await mkdtemp(join(tmpdir(), "sb-upload-"));
        file = {
          name: part.filename,
          path: join(directory, "file"),
          size: 0,
          remove: () => rm(directory, { recursive: true, force: true }),
        };
        await pipeline(part.file, createWriteStream(file.path));
        // Past the limit the multipart reader ends the file early and marks it truncated.
        if (part.file.truncated) throw tooLarge();
        file.size = (await stat(file.path)).size;
      } else if (typeof part.value === "string") fields[part.fieldname] = part.value;
    }
    if (!file || file.size === 0) throw new HttpError(400, "请选择要上传的文件");
    return { fields, file };
  } catch (error) {
    await file?.remove();
    // Refused before its end: the rest of the body is read and dropped. Left unread, the
    // connection would wait in the middle of this body, and the next request sent on it (a
    // keep-alive client's next upload) would never be answered.
    if (!request.raw.readableEnded) {
      request.raw.unpipe();
      request.raw.resume();
    }
    if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") throw tooLarge();
    throw error;
  }
}
