import { describe, expect, it } from "vitest";
import { validateWith } from "@/components/ui/validation";
import { customerCreateSchema } from "@/lib/schemas/customer.schema";

describe("validateWith", () => {
  it("gives the parsed body when the schema takes the input", () => {
    expect(validateWith(customerCreateSchema, { name: " Acme ", planId: 3 })).toEqual({
      ok: true,
      data: customerCreateSchema.parse({ name: " Acme ", planId: 3 }),
    });
  });

  it("gives the field errors by the server's dotted paths when it refuses", () => {
    const result = validateWith(customerCreateSchema, { name: "", extra: 1 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual(["extra", "name", "planId"]);
    expect(result.errors.extra).toEqual(["Unknown field"]);
  });
});
