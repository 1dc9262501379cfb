import type { Trx } from "#upstream/db";

/**
 * The demo's robot resources (decision 030): a few regular expressions a flow matches with, a
 * working week with Saturday mornings, this year's and next year's long festivals, and gateway
 * lines; the other tenant has its own, so isolation shows.
 */
export async function seedRobotResources(trx: Trx): Promise<void> {
  const tenants = await trx.selectFrom("tenants").select(["id", "code"]).execute();
  const demo = tenants.find((t) => t.code === "demo");
  const other = tenants.find((t) => t.code === "other");
  if (!demo || !other) return;

  await trx
    .insertInto("robot_regexes")
    .values([
      { tenant_id: demo.id, name: "手机号", pattern: "1[3-9]\\d{9}", description: "大陆手机号码，11位", updated_by: "系统" },
      {
        tenant_id: demo.id,
        name: "金额",
        pattern: "(\\d+(?:\\.\\d{1,2})?)元",
        description: "客户说出的金额，分组为数字",
        updated_by: "系统",
      },
      { tenant_id: demo.id, name: "分期期数", pattern: "([0-9一二三六九十]+)期", description: "客户想分的期数", updated_by: "系统" },
      { tenant_id: demo.id, name: "日期", pattern: "(\\d{1,2})月(\\d{1,2})[日号]", description: "几月几号", updated_by: "系统" },
      { tenant_id: other.id, name: "其他租户正则", pattern: "other", description: "", updated_by: "系统" },
    ])
    .execute();

  await trx
    .insertInto("robot_working_days")
    .values(
      [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
        tenant_id: demo.id,
        weekday,
        enabled: weekday <= 6,
        start_time: "09:00",
        end_time: weekday === 6 ? "12:00" : "18:00",
      })),
    )
    .execute();

  const year = new Date().getFullYear();
  await trx
    .insertInto("robot_festivals")
    .values([
      { tenant_id: demo.id, name: "劳动节", start_date: `${year}-05-01`, end_date: `${year}-05-05` },
      { tenant_id: demo.id, name: "国庆节", start_date: `${year}-10-01`, end_date: `${year}-10-07` },
      { tenant_id: demo.id, name: "元旦", start_date: `${year + 1}-01-01`, end_date: `${year + 1}-01-01` },
      { tenant_id: other.id, name: "其他租户假期", start_date: `${year}-10-01`, end_date: `${year}-10-03` },
    ])
    .execute();

  await trx
    .insertInto("robot_gateway_lines")
    .values([
      { tenant_id: demo.id, name: "北京移动线路", carrier: "中国移动", prefix: "010", concurrency: 30 },
      { tenant_id: demo.id, name: "上海电信线路", carrier: "中国电信", prefix: "021", concurrency: 20 },
      { tenant_id: demo.id, name: "广州联通备用线路", carrier: "中国联通", prefix: "020", concurrency: 10, enabled: false },
      { tenant_id: other.id, name: "其他租户线路", carrier: "中国移动", prefix: "0755", concurrency: 5 },
    ])
    .execute();
}
