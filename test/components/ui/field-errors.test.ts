import { describe, expect, it } from "vitest";
import { errorsByPath, firstErrors } from "@/components/ui/field-errors";

describe("field errors", () => {
  it("keeps the first message per path of the API's errors", () => {
    expect(firstErrors({ "limits.0.count": ["a", "b"], expiresAt: ["c"], x: [] })).toEqual({
      "limits.0.count": "a",
      expiresAt: "c",
    });
  });

  it("joins zod issue paths with dots, first message wins", () => {
    expect(
      errorsByPath([
        { path: ["limits", 0, "count"], message: "a" },
        { path: ["limits", 0, "count"], message: "b" },
        { path: [], message: "c" },
      ]),
    ).toEqual({ "limits.0.count": "a", "": "c" });
  });
});
