import { describe, expect, it } from "vitest";
import type { MenuItem } from "#contracts/crm";
import { findMenuByCode, menuForWorkType, menuFromResponse, TEXT_WORK_MENU_CODE, VOICE_WORK_MENU_CODE } from "./menu";

const menu: MenuItem[] = [
  { code: "home", name: "首页", url: "/" },
  {
    code: "work",
    name: "工作台",
    url: "/workBench",
    children: [
      { code: VOICE_WORK_MENU_CODE, name: "语音工作台", url: "/workBench" },
      { code: TEXT_WORK_MENU_CODE, name: "文本工作台", url: "/textWorkBench" },
    ],
  },
];

describe("menuFromResponse (spec §5)", () => {
  it("accepts a response with code 1", () => {
    expect(menuFromResponse({ code: 1, data: { menu: { children: menu } } })).toEqual(menu);
  });
  it("empties the menu for any other code", () => {
    expect(menuFromResponse({ code: 0, data: { menu: { children: menu } } })).toEqual([]);
    expect(menuFromResponse({ code: 500, data: null })).toEqual([]);
  });
});

describe("menuForWorkType (spec §5)", () => {
  const codes = (items: MenuItem[]) => items.flatMap((i) => [i.code, ...(i.children ?? []).map((c) => c.code)]);
  it("hides voice work for text agents (workType 3)", () => {
    const visible = codes(menuForWorkType(menu, 3));
    expect(visible).toContain(TEXT_WORK_MENU_CODE);
    expect(visible).not.toContain(VOICE_WORK_MENU_CODE);
  });
  it("hides text work for every other agent", () => {
    for (const workType of [0, 1, 2, null]) {
      const visible = codes(menuForWorkType(menu, workType));
      expect(visible).toContain(VOICE_WORK_MENU_CODE);
      expect(visible).not.toContain(TEXT_WORK_MENU_CODE);
    }
  });
  it("finds a menu entry by its code (spec §6)", () => {
    expect(findMenuByCode(menu, TEXT_WORK_MENU_CODE)?.url).toBe("/textWorkBench");
    expect(findMenuByCode(menu, "nope")).toBeUndefined();
  });
});
