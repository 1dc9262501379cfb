import { describe, expect, it } from "vitest";
import { ExpiringCache } from "./expiring-cache";

describe("ExpiringCache", () => {
  it("keeps a value until its time, then forgets it", () => {
    const cache = new ExpiringCache<string, number>(10);
    cache.set("a", 1, 1_000);
    expect(cache.get("a", 999)).toBe(1);
    expect(cache.get("a", 1_000)).toBeUndefined();
    expect(cache.get("a", 0)).toBeUndefined();
  });

  it("when full, lets the oldest entry go", () => {
    const cache = new ExpiringCache<string, number>(2);
    cache.set("a", 1, 10);
    cache.set("b", 2, 10);
    cache.set("a", 3, 10);
    cache.set("c", 4, 10);
    expect([cache.get("a", 0), cache.get("b", 0), cache.get("c", 0)]).toEqual([undefined, 2, 4]);
  });

  it("forgets an entry by its key, or the entries whose value matches", () => {
    const cache = new ExpiringCache<string, number>(10);
    cache.set("a", 1, 10);
    cache.set("b", 2, 10);
    cache.set("c", 3, 10);
    cache.delete("c");
    cache.deleteWhere((value) => value === 1);
    expect([cache.get("a", 0), cache.get("b", 0), cache.get("c", 0)]).toEqual([undefined, 2, undefined]);
  });
});
