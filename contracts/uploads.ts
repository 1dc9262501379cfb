/**
 * The platform's upload limits, in one place: the platform registers @fastify/multipart with
 * `bytes` and refuses past it with `message`; the console's import screens tell users `mb`.
 */
export type UploadLimit = { mb: number; bytes: number; message: string };
const uploadLimit = (mb: number): UploadLimit => ({ mb, bytes: mb * 1024 * 1024, message: `文件不能超过${mb}MB` });

/** A contact list (a campaign's, or 联系人's import): 600,000 contacts with a few extra columns fit, or 100,000 with a dozen properties. */
export const CONTACT_FILE_LIMIT = uploadLimit(20);
/** A knowledge base import. */
export const KNOWLEDGE_FILE_LIMIT = uploadLimit(2);
