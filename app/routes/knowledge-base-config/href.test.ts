import { describe, expect, test } from "vitest";
import { screenHref } from "./href";

describe("screenHref", () => {
  test("keeps the group, search, state and a chosen page size; drops the page and the node edited", () => {
    const query = { group: 3, keyword: "退款", state: 1, size: 50, page: 4, edit: 7 } as const;
    expect(screenHref(query)).toBe("/knowledgeBase/config?group=3&keyword=%E9%80%80%E6%AC%BE&state=1&size=50");
  });
  test("the default page size and empty values stay out of the address", () => {
    expect(screenHref({ size: 20, keyword: "" })).toBe("/knowledgeBase/config");
  });
  test("a change is applied and undefined removes a parameter", () => {
    expect(screenHref({ group: 3, size: 20 }, { edit: "new", group: undefined })).toBe("/knowledgeBase/config?edit=new");
    expect(screenHref({ group: 3 }, { page: 2 })).toBe("/knowledgeBase/config?group=3&page=2");
  });
});
