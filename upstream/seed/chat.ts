import type { Db } from "#upstream/db";
import { insertKnowledge } from "#upstream/repositories/knowledge";
import { insertMessage, insertSession, closeSession, findSession, saveBusinessRecord } from "#upstream/repositories/chat";

/** Quick replies of the demo tenant: the knowledge nodes text agents insert by typing '/'. */
const DEMO_QUICK_REPLIES = [
  { title: "问候", labels: ["开场"], content: "您好，很高兴为您服务，请问有什么可以帮您？" },
  { title: "请稍等", content: "好的，请您稍等，我马上为您查询。" },
  { title: "账单查询", content: "您可以在 App 的“我的-账单”中查看每月明细，如有疑问请提供订单号。" },
  { title: "修改手机号", content: "修改绑定手机号请在“设置-账号安全”中操作，需要验证原手机号。" },
  { title: "结束语", labels: ["结束"], content: "感谢您的咨询，祝您生活愉快，再见！" },
];

type SeedConversation = {
  customer: { name: string; phone: string; channel: string; region: string };
  lines: Array<["user" | "agent", string]>;
};

const DEMO_CONVERSATIONS: SeedConversation[] = [
  {
    customer: { name: "李娜", phone: "13611112222", channel: "网页", region: "南京" },
    lines: [
      ["user", "你好，我的快递三天没更新了。"],
      ["agent", "您好，请提供一下订单号，我帮您查询。"],
      ["user", "订单号 20261118-0031。"],
      ["agent", "已为您催促配送站，预计明天送达。"],
      ["user", "好的，谢谢。"],
    ],
  },
  {
    customer: { name: "王磊", phone: "13522223333", channel: "微信", region: "武汉" },
    lines: [
      ["user", "怎么开发票？"],
      ["agent", "您可以在订单详情页点击“申请开票”。"],
    ],
  },
];

const OTHER_CONVERSATIONS: SeedConversation[] = [
  { customer: { name: "他租户客户", phone: "13900009999", channel: "网页", region: "深圳" }, lines: [["user", "其他租户的会话内容"]] },
];

async function seedConversations(
  db: Db,
  tenantId: number,
  agentUserId: number | undefined,
  queueName: string,
  conversations: SeedConversation[],
) {
  for (const conversation of conversations) {
    const sessionKey = await insertSession(db, { tenantId, queueName, customer: conversation.customer, agentUserId });
    const session = await findSession(db, { tenantId }, sessionKey);
    if (!session) continue;
    for (const [role, content] of conversation.lines) await insertMessage(db, session, role, content);
    if (agentUserId !== undefined) await saveBusinessRecord(db, session, agentUserId, { category: "consult", result: 1, remark: "已解决" });
    await closeSession(db, session);
  }
}

/** Chat data of the demo tenants: quick replies and closed conversations (chat records). */
export async function seedChat(db: Db): Promise<void> {
  const tenants = await db.selectFrom("tenants").select(["id", "code"]).execute();
  for (const tenant of tenants) {
    const agent = await db
      .selectFrom("users")
      .select(["id", "default_queue_name"])
      .where("tenant_id", "=", tenant.id)
      .where("user_name", "=", "chat")
      .executeTakeFirst();
    if (tenant.code === "demo") {
      await insertKnowledge(db, tenant.id, "快捷回复", DEMO_QUICK_REPLIES);
      await seedConversations(db, tenant.id, agent?.id, agent?.default_queue_name ?? "demo-text", DEMO_CONVERSATIONS);
    } else {
      await insertKnowledge(db, tenant.id, "快捷回复", [{ title: "他租户快捷回复", content: "其他租户的快捷回复" }]);
      await seedConversations(db, tenant.id, undefined, `${tenant.code}-text`, OTHER_CONVERSATIONS);
    }
  }
}
