import { describe, expect, test } from "vitest";
import { z } from "zod";
import { withConfirmedPassword } from "./confirmed-password";

const schema = withConfirmedPassword(z.object({ oldPassword: z.string(), newPassword: z.string() }), "newPassword");
/** The first error of each field: what the form shows under it. */
const errorsOf = (form: Record<string, string>) => {
  const parsed = schema.safeParse(form);
  if (parsed.success) return null;
  return Object.fromEntries(Object.entries(parsed.error.flatten().fieldErrors).map(([field, errors]) => [field, errors?.[0]]));
};

describe("withConfirmedPassword", () => {
  test("the password named typed again the same passes; the other fields are the schema's", () => {
    expect(schema.parse({ oldPassword: "Old2026x", newPassword: "New2026x", confirm: "New2026x" })).toEqual({
      oldPassword: "Old2026x",
      newPassword: "New2026x",
      confirm: "New2026x",
    });
  });

  test("typed again differently, or not at all, is refused on the confirmation", () => {
    expect(errorsOf({ oldPassword: "Old2026x", newPassword: "New2026x", confirm: "New2026y" })).toEqual({
      confirm: "两次输入的密码不一致",
    });
    expect(errorsOf({ oldPassword: "Old2026x", newPassword: "New2026x", confirm: "" })).toEqual({ confirm: "请再次输入新密码" });
    expect(errorsOf({ oldPassword: "New2026x", newPassword: "Other2026", confirm: "New2026x" })).toEqual({
      confirm: "两次输入的密码不一致",
    });
  });
});
