import { describe, expect, it } from "vitest";
import { namesColumn } from "./customers";

describe("import headers", () => {
  it("knows a file's name and phone columns by any of their usual headers, in any case, spaces around", () => {
    for (const header of ["手机号", "手机号码", "电话号码", "电话", "Phone", " phone "])
      expect(namesColumn(header, "phone"), header).toBe(true);
    for (const header of ["姓名", "客户姓名", "NAME"]) expect(namesColumn(header, "name"), header).toBe(true);
    for (const header of ["地址", "手机", "姓名"]) expect(namesColumn(header, "phone"), header).toBe(false);
  });
});
