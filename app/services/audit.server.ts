import { AuditPageResponseSchema, type AuditListQuery } from "#contracts/audit";
import { call, requireData, type Caller } from "./upstream.server";

/** The audit service (contracts/audit.ts). */
export async function listAuditLog(caller: Caller, query: Partial<AuditListQuery>) {
  return requireData(
    await call({ method: "POST", path: "/audit/api/log/list", json: query, schema: AuditPageResponseSchema, what: "获取操作日志", caller }),
    "获取操作日志",
  );
}
