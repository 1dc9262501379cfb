import { describe, expect, test } from "vitest";
import { exportHref, pageCursors, typedList } from "./queue";

describe("exportHref", () => {
  test("keeps the filters, drops the page, its size and cursors, names the format", () => {
    expect(exportHref("?qcStatus=1&page=3&size=50&after=1_2&mine=1", "xlsx")).toBe(
      "/inspectionSuccess/export?qcStatus=1&mine=1&format=xlsx",
    );
    expect(exportHref("", "csv")).toBe("/inspectionSuccess/export?format=csv");
  });
});

describe("typedList", () => {
  test("one value, several, or none come back as a list of strings", () => {
    expect(typedList(7)).toEqual(["7"]);
    expect(typedList(["1", 2])).toEqual(["1", "2"]);
    expect(typedList(undefined)).toEqual([]);
    expect(typedList(null)).toEqual([]);
  });
});

describe("pageCursors", () => {
  test("the first and last row's time and id; none for an empty page", () => {
    const rows = [
      { callTime: 300, callId: 9 },
      { callTime: 200, callId: 4 },
      { callTime: 100, callId: 2 },
    ];
    expect(pageCursors(rows)).toEqual({ first: "300_9", last: "100_2" });
    expect(pageCursors([])).toBeUndefined();
  });
});
