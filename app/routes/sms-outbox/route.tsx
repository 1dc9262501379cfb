import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import { SMS_KINDS, SMS_STATUSES, labelOf } from "#contracts/codes";
import type { SmsMessage } from "#contracts/sms";
import { FilterSelect } from "#app/components/code-select";
import { CodeLabel } from "#app/components/code-tag";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Paginator } from "#app/components/paginator";
import { Screen } from "#app/components/screen";
import { FilterBar } from "#app/components/filters";
import type { RouteHandle } from "#app/lib/handle";
import { idCursors } from "#app/lib/list-url";
import { SCREEN_TITLES } from "#app/lib/screens";
import { requireAccess } from "#app/server/access.server";
import { KeysetPageSchema, pagination, parseListQuery } from "#app/server/page-query.server";
import { listOutbox } from "#app/services/customers.server";

const SCREEN = "/sms/outbox";
const title = SCREEN_TITLES[SCREEN];
export const handle: RouteHandle = { title };

const QuerySchema = KeysetPageSchema.extend({
  status: z.enum(["queued", "sent", "delivered", "failed"]).optional(),
  phone: z.string().trim().max(20).optional(),
});

/** The tenant's SMS outbox: every message as the carrier moved it (delivered, or failed with its reason). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const query = parseListQuery(request, QuerySchema) as z.infer<typeof QuerySchema>;
  const page = await listOutbox(caller, {
    ...pagination(query),
    status: query.status,
    phone: query.phone,
    after: query.after,
    before: query.before,
  });
  return { query, page };
}

export default function SmsOutbox() {
  const { query, page } = useLoaderData<typeof loader>();
  const { pathname, search } = useLocation();
  return (
    <Screen title={title}>
      <FilterBar label="筛选短信" search resetHref={SCREEN}>
        <FilterSelect id="outbox-status" name="status" label="状态" table={SMS_STATUSES} value={query.status} />
        <div className="sb-field">
          <label htmlFor="outbox-phone">手机号</label>
          <input id="outbox-phone" name="phone" maxLength={20} defaultValue={query.phone ?? ""} className="p-inputtext" />
        </div>
      </FilterBar>
      <p className="sb-hint">短信发出后，运营商回执到达时更新状态；刷新页面查看最新状态。</p>
      <DataTable<SmsMessage>
        caption="短信发送记录"
        rowKey="id"
        emptyMessage="暂无短信"
        config={{
          list: page.list,
          total: page.total,
          eleItem: [
            { prop: "createdAt", label: "提交时间", type: "datetime", minWidth: 150 },
            { prop: "phone", label: "手机号" },
            { prop: "content", label: "内容", render: (m) => `${m.signature ? `【${m.signature}】` : ""}${m.content}` },
            { prop: "kind", label: "类型", render: (m) => labelOf(SMS_KINDS, m.kind) },
            { prop: "segments", label: "条数" },
            { prop: "status", label: "状态", render: (m) => <CodeLabel table={SMS_STATUSES} code={m.status} /> },
            { prop: "failureReason", label: "失败原因", render: (m) => m.failureReason ?? "—" },
            { prop: "deliveredAt", label: "送达时间", type: "datetime", minWidth: 150 },
          ],
        }}
      />
      <Paginator
        total={page.total}
        estimated={page.estimated}
        pageNo={query.page}
        pageSize={query.size}
        pathname={pathname}
        search={search}
        cursors={idCursors(page.list)}
      />
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
