import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./passwords";

describe("password hashing", () => {
  it("stores a salted scrypt hash, never the password", async () => {
    const hash = await hashPassword("Switchboard@2026");
    expect(hash).not.toContain("Switchboard@2026");
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
    // A fresh salt each time.
    expect(await hashPassword("Switchboard@2026")).not.toBe(hash);
  });

  it("verifies the right password and rejects others", async () => {
    const hash = await hashPassword("Switchboard@2026");
    expect(await verifyPassword("Switchboard@2026", hash)).toBe(true);
    expect(await verifyPassword("switchboard@2026", hash)).toBe(false);
    expect(await verifyPassword("", hash)).toBe(false);
  });

  it("rejects malformed stored hashes instead of throwing", async () => {
    expect(await verifyPassword("x", "plain-text")).toBe(false);
    expect(await verifyPassword("x", "scrypt$3$8$1$c2FsdA$aGFzaA")).toBe(false);
  });
});
