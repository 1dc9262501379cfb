import { describe, expect, it } from "vitest";
import type { MenuItem } from "#contracts/crm";
import { activeMenuUrl, flattenMenu, isPathAllowed, PUBLIC_PATHS } from "./access";

const item = (url: string, children?: MenuItem[]): MenuItem => ({ code: url, name: url, url, children });
const menu = [item("/"), item("/callHistory"), item("/agentTask/my"), item("/incoming", [item("/incoming/history")])];

describe("isPathAllowed (spec §2/§6)", () => {
  it("allows every public path without a menu", () => {
    for (const path of PUBLIC_PATHS) expect(isPathAllowed(path, [])).toBe(true);
  });
  it("allows a path equal to a menu url, with or without a trailing slash", () => {
    expect(isPathAllowed("/callHistory", menu)).toBe(true);
    expect(isPathAllowed("/callHistory/", menu)).toBe(true);
  });
  it("allows a path sharing its first segment with a menu url, nested menus included", () => {
    expect(isPathAllowed("/agentTask/42", menu)).toBe(true);
    expect(isPathAllowed("/agentTask/businessRecord", menu)).toBe(true);
    expect(isPathAllowed("/incoming/call", menu)).toBe(true);
  });
  it("refuses a path the menu does not cover", () => {
    expect(isPathAllowed("/callLog", menu)).toBe(false);
    expect(isPathAllowed("/monitor/agent", menu)).toBe(false);
    expect(isPathAllowed("/user/fillInformation", menu)).toBe(false);
  });
  it("does not let the home url '/' entitle everything", () => {
    expect(isPathAllowed("/callLog", [item("/")])).toBe(false);
  });
  it("compares whole segments, not prefixes", () => {
    expect(isPathAllowed("/callHistoryExport", menu)).toBe(false);
  });
});

describe("activeMenuUrl (spec §2)", () => {
  it("picks the menu whose url is contained in the current path, the longest first", () => {
    expect(activeMenuUrl("/incoming/history", menu)).toBe("/incoming/history");
    expect(activeMenuUrl("/incoming", menu)).toBe("/incoming");
    expect(activeMenuUrl("/callHistory/7", menu)).toBe("/callHistory");
    expect(activeMenuUrl("/", menu)).toBe("/");
    expect(activeMenuUrl("/monitor/agent", menu)).toBeNull();
  });
});

describe("flattenMenu", () => {
  it("lists every item, parents before their children, the same for the same menu", () => {
    expect(flattenMenu(menu).map((i) => i.url)).toEqual(["/", "/callHistory", "/agentTask/my", "/incoming", "/incoming/history"]);
    expect(flattenMenu(menu)).toBe(flattenMenu(menu));
  });
  it("sees another menu as another, even with the same urls", () => {
    const other = [item("/callHistory"), item("/monitor", [item("/monitor/agent")])];
    expect(flattenMenu(other).map((i) => i.url)).toEqual(["/callHistory", "/monitor", "/monitor/agent"]);
    expect(isPathAllowed("/monitor/agent", other)).toBe(true);
    expect(isPathAllowed("/monitor/agent", menu)).toBe(false);
  });
});
