import { createCookie, data, unstable_parseMultipartFormData as parseMultipartFormData } from "@remix-run/node";
import { CSRF, CSRFError } from "remix-utils/csrf/server";
import { Honeypot, SpamError } from "remix-utils/honeypot/server";
import type { UploadFile } from "#app/services/upstream.server";
import { secrets, secureCookies } from "./session.server";

export const CSRF_FIELD = "csrf";

export const csrf = new CSRF({
  cookie: createCookie("sb_csrf", { path: "/", httpOnly: true, sameSite: "lax", secure: secureCookies, secrets }),
  formDataKey: CSRF_FIELD,
  secret: secrets[0],
});

/**
 * remix-utils' honeypot, stricter: its encrypted "form made at" time must decrypt to a moment of
 * the last day. Decrypting tampered text sometimes yields a small number, which the library takes
 * for a valid time (a tampered field then passed about once in a dozen posts).
 */
const FORM_MAX_AGE_MS = 24 * 60 * 60 * 1000;
class StrictHoneypot extends Honeypot {
  override check(form: FormData): void {
    super.check(form);
    // A post without the honeypot's fields is not checked by the library either (CSRF refuses it).
    if (!this.shouldCheckHoneypot(form, this.nameFieldName)) return;
    const madeAt = Number(this.decrypt(String(form.get(this.validFromFieldName ?? "") ?? "")));
    if (!(madeAt > Date.now() - FORM_MAX_AGE_MS)) throw new SpamError("Honeypot valid from is too old");
  }
}
export const honeypot = new StrictHoneypot({ encryptionSeed: secrets[0] });

/**
 * The form an action was posted. Every action takes a form (the islands post forms too): a JSON
 * body, a wrong type or a broken body is a 400 in Chinese, not the 500 of a failed parse.
 */
export async function readPostedForm(request: Request): Promise<FormData> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) throw badForm();
  try {
    return await request.formData();
  } catch {
    throw badForm();
  }
}

const badForm = () => data({ message: "请求格式不正确，请通过页面上的表单提交", status: 400, what: "提交" }, { status: 400 });

/** The text fields of a form that carries a file: far below this, like any form (server.mjs lets 1 MB through for those). */
const UPLOAD_FIELDS_LIMIT = 1024 * 1024;

/**
 * A form that may carry a file (the imports), read as it arrives. Its text fields are collected;
 * the file posted as `file` is handed to `onFile` as a stream, with the fields that came
 * before it (the pages put the CSRF token and what the file is for first), so the file goes on to
 * the platform without the console ever holding it. `sent` is what `onFile` answered, or
 * undefined when no file was posted (or onFile sent nothing). Any other post is read as readPostedForm reads it.
 */
export async function readPostedUpload<T>(
  request: Request,
  onFile: (fieldsBefore: FormData, file: UploadFile) => Promise<T> | undefined,
): Promise<{ form: FormData; sent?: T }> {
  if (!/^multipart\/form-data\b/i.test(request.headers.get("Content-Type") ?? "")) return { form: await readPostedForm(request) };
  const form = new FormData();
  let sent: { value: T | undefined } | undefined;
  let fieldBytes = 0;
  /** What onFile (or the limit) threw: passed on as it is; anything else the parser throws is a broken body. */
  let thrown: unknown;
  try {
    await parseMultipartFormData(request, async ({ name, filename, contentType, data: bytes }) => {
      try {
        if (filename === undefined) {
          const chunks: Uint8Array[] = [];
          for await (const chunk of bytes) {
            fieldBytes += chunk.length;
            if (fieldBytes > UPLOAD_FIELDS_LIMIT)
              throw data({ message: "提交的内容过大，请删减后重试", status: 413, what: "提交" }, { status: 413 });
            chunks.push(chunk);
          }
          form.append(name, Buffer.concat(chunks).toString("utf8"));
        } else if (name === "file" && filename !== "" && !sent) {
          sent = { value: await onFile(form, { name: filename, type: contentType, data: bytes }) };
        }
        // What onFile left unread (a refusal before the end), another file or an empty file input: read past, kept nowhere.
        for await (const _ of bytes);
        return undefined;
      } catch (error) {
        thrown = error;
        throw error;
      }
    });
  } catch (error) {
    if (error === thrown) throw error;
    throw badForm();
  }
  return { form, sent: sent?.value };
}

/**
 * A post a browser sends from another site carries that site's Origin: refused before anything
 * else (the CSRF token would refuse it too; this says why). Compared by host, so a proxy that
 * ends TLS in front of the console does not make every post foreign.
 */
function requireSameOrigin(request: Request): void {
  const origin = request.headers.get("Origin");
  if (!origin) return;
  let host: string | null = null;
  try {
    host = new URL(origin).host;
  } catch {
    // "null" or garbage: not this site
  }
  if (host !== new URL(request.url).host) {
    throw data({ message: "不接受来自其他网站的提交", status: 403, what: "安全校验" }, { status: 403 });
  }
}

/** Every action validates the CSRF token of its form; a failure is a clear 403, never a 500. */
export async function requireCsrf(request: Request, form: FormData): Promise<void> {
  requireSameOrigin(request);
  try {
    await csrf.validate(form, request.headers);
  } catch (error) {
    if (error instanceof CSRFError) {
      throw data({ message: "页面已过期，请刷新页面后重试", status: 403, what: "安全校验" }, { status: 403 });
    }
    throw error;
  }
}

/**
 * A filled honeypot is a robot: refuse quietly with 400. A tampered timestamp field is refused the
 * same way: it cannot be decrypted, and the library throws its decryption error, not a SpamError.
 */
export function requireHuman(form: FormData): void {
  try {
    honeypot.check(form);
  } catch {
    throw data({ message: "提交无效，请刷新页面后重试", status: 400, what: "安全校验" }, { status: 400 });
  }
}
