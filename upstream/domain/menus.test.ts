import { describe, expect, it } from "vitest";
import type { MenuItem } from "#contracts/crm";
import { catalogueCodes, mayCreateWorkOrders, menusFor } from "./menus";

const SCREEN_URLS = [
  "/",
  "/workBench",
  "/textWorkBench",
  "/agentTask/my",
  "/agentTask/businessRecord",
  "/agentTask/workOrder",
  "/incoming/call",
  "/incoming/history",
  "/incoming/businessRecord",
  "/manual/preview",
  "/manual/dataDistribution",
  "/manMachine/coordination",
  "/callHistory",
  "/callLog",
  "/text/call",
  "/text/businessRecord",
  "/monitor/agent",
  "/inspectionSuccess",
  "/access",
  "/inspectionForm",
  "/knowledgeBase/config",
  "/contacts",
  "/customerProperty",
  "/sms/template",
  "/sms/outbox",
  "/businessTemplate/record",
  "/businessTemplate/template",
  "/campaign",
  "/robot/flow",
  "/robot/instance",
  "/robot/regex",
  "/robot/calendar",
  "/robot/speaker",
  "/robot/resources",
  "/robot/store",
  "/robot/agent",
  "/achievement",
  "/audit",
];

const flatten = (items: MenuItem[]): MenuItem[] => items.flatMap((item) => [item, ...flatten(item.children ?? [])]);
const leafUrls = (items: MenuItem[]) =>
  flatten(items)
    .filter((item) => !item.children)
    .map((item) => item.url);

describe("menu catalogue", () => {
  it("has unique codes", () => {
    const codes = catalogueCodes();
    expect(new Set(codes).size).toBe(codes.length);
  });

  it("gives the administrator every screen, and every group url is one of its children's", () => {
    const menu = menusFor("admin", 1);
    expect(leafUrls(menu).sort()).toEqual([...SCREEN_URLS].sort());
    for (const item of flatten(menu)) {
      expect(SCREEN_URLS).toContain(item.url);
      if (item.children) expect(item.children.map((child) => child.url)).toContain(item.url);
    }
  });

  it("names the performance screen for what each role reads there: an agent's own row, the others the team's", () => {
    const name = (role: "admin" | "supervisor" | "agent", workType: number) =>
      flatten(menusFor(role, workType)).find((item) => item.url === "/achievement")?.name;
    expect(name("agent", 1)).toBe("我的业绩");
    expect(name("agent", 3)).toBe("我的业绩");
    expect(name("supervisor", 1)).toBe("坐席业绩");
    expect(name("admin", 1)).toBe("坐席业绩");
  });

  it("trims a group to the children granted and points it at the first of them", () => {
    const manual = menusFor("supervisor", 1).find((item) => item.code === "manual");
    expect(manual?.url).toBe("/manual/dataDistribution");
    expect(manual?.children?.map((child) => child.url)).toEqual(["/manual/dataDistribution"]);
  });

  it("gives agents the contacts (to read and text) but not the customer or SMS administration", () => {
    for (const workType of [1, 3]) {
      expect(leafUrls(menusFor("agent", workType))).toContain("/contacts");
      expect(leafUrls(menusFor("agent", workType))).not.toContain("/customerProperty");
      expect(leafUrls(menusFor("agent", workType))).not.toContain("/sms/template");
    }
    expect(leafUrls(menusFor("supervisor", 1))).not.toContain("/contacts");
  });

  it("gives agents the menu of their work type", () => {
    expect(leafUrls(menusFor("agent", 1))).toContain("/workBench");
    expect(leafUrls(menusFor("agent", 1))).not.toContain("/textWorkBench");
    expect(leafUrls(menusFor("agent", 3))).toContain("/textWorkBench");
    expect(leafUrls(menusFor("agent", 3))).not.toContain("/workBench");
  });

  it("lets whoever has a work-order screen make work orders: text agents get 我的工单 under 文本客服", () => {
    const text = menusFor("agent", 3).find((item) => item.code === "text_service");
    expect(text?.children?.map((child) => child.name)).toContain("我的工单");
    expect(leafUrls(menusFor("admin", 1)).filter((url) => url === "/agentTask/workOrder")).toHaveLength(1);
    for (const [role, workType] of [
      ["admin", 1],
      ["supervisor", 1],
      ["agent", 1],
      ["agent", 3],
    ] as const) {
      expect(mayCreateWorkOrders(role, workType)).toBe(true);
    }
  });
});
