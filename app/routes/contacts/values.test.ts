import { describe, expect, test } from "vitest";
import type { CustomerContact, CustomerProperty } from "#contracts/customers";
import { columnsKnown, postedValues, screenHref, valueFilters, valueText } from "./values";

const form = (entries: Array<[string, string]>) => {
  const data = new FormData();
  for (const [key, value] of entries) data.append(key, value);
  return data;
};

describe("screenHref", () => {
  test("keeps the filters, drops the contact edited or shown and the cursors, applies the change", () => {
    expect(screenHref("?keyword=王&edit=3&history=4&after=9&group=2", { page: 2 })).toBe("/contacts?keyword=%E7%8E%8B&group=2&page=2");
    expect(screenHref("?group=2&page=3", { group: undefined, page: undefined })).toBe("/contacts");
    expect(screenHref("", { edit: "new" })).toBe("/contacts?edit=new");
  });
});

describe("valueFilters", () => {
  test("takes the filled v<id> parameters only, named by the property's id", () => {
    expect(valueFilters({ keyword: "王", v3: "VIP", v4: "", v12: "北京", vx: "no", page: 1 })).toEqual({ "3": "VIP", "12": "北京" });
  });
});

describe("postedValues", () => {
  test("a text value is its first entry, a multiple choice all of them", () => {
    const values = postedValues(
      form([
        ["name", "王"],
        ["v1", "北京"],
        ["v2", "A"],
        ["v2", "B"],
        ["m2", "1"],
      ]),
    );
    expect(values).toEqual({ "1": "北京", "2": ["A", "B"] });
  });
  test("a multiple choice with nothing ticked is an empty list", () => {
    expect(
      postedValues(
        form([
          ["m5", "1"],
          ["v6", ""],
        ]),
      ),
    ).toEqual({ "5": [], "6": "" });
  });
});

describe("valueText", () => {
  const contact = { values: { "1": "北京", "2": ["A", "B"] } } as unknown as CustomerContact;
  const property = (id: number) => ({ id }) as CustomerProperty;
  test("joins a multiple choice, shows a text as it is and nothing for no value", () => {
    expect(valueText(contact, property(1))).toBe("北京");
    expect(valueText(contact, property(2))).toBe("A、B");
    expect(valueText(contact, property(3))).toBe("");
  });
});

describe("columnsKnown", () => {
  test("every headed column known and one of them the phone", () => {
    expect(
      columnsKnown([
        { header: "手机号", target: "phone" },
        { header: "", target: "" },
      ]),
    ).toBe(true);
    expect(
      columnsKnown([
        { header: "手机号", target: "phone" },
        { header: "备注", target: "" },
      ]),
    ).toBe(false);
    expect(columnsKnown([{ header: "姓名", target: "name" }])).toBe(false);
  });
});
