import { data } from "@remix-run/node";
import { requireAccess } from "./access.server";
import { listUsers } from "#app/services/crm.server";
import type { CallLister } from "#app/services/contact.server";
import { TEXT_AGENT_WORK_TYPE } from "#contracts/codes";
import { cursorOfRow, parseCallListQuery } from "./call-list-query.server";

/**
 * The loader body every call list shares: access, the URL's filters (malformed ones answered in
 * Chinese with status 400), the page from the platform, and the agent choices for supervisors.
 */
export async function loadCallList(request: Request, list: CallLister) {
  const { caller, user } = await requireAccess(request);
  const url = new URL(request.url);
  const parsed = parseCallListQuery(url.searchParams);
  // Supervisors filter by agent; the choices load alongside the page.
  const agentChoices =
    user.role === "agent"
      ? Promise.resolve(null)
      : listUsers(caller).then((users) =>
          users.list.filter((u) => u.workType !== TEXT_AGENT_WORK_TYPE).map((u) => ({ id: u.id, name: u.realName })),
        );
  if (!parsed.ok) {
    return data({ ok: false as const, errors: parsed.errors, values: parsed.values, agents: await agentChoices }, { status: 400 });
  }
  const [page, agents] = await Promise.all([list(caller, parsed.filter), agentChoices]);
  const rows = page.list;
  // The form shows the dates actually used (today when none were given).
  const values: Record<string, string> = { ...parsed.values, start: parsed.query.start, end: parsed.query.end };
  return data({
    ok: true as const,
    values,
    pageNo: parsed.query.page,
    pageSize: parsed.query.size,
    page,
    cursors: rows.length > 0 ? { first: cursorOfRow(rows[0]), last: cursorOfRow(rows[rows.length - 1]) } : undefined,
    agents,
  });
}
