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

  // Regression: plain objects as maps let `__proto__` set the prototype and `toString` find
  // an inherited function, so the message of such a field was lost.
  it("keeps fields named like Object.prototype members", () => {
    const fromServer = JSON.parse('{"__proto__":["Unknown field"],"toString":["Unknown field"]}');
    const first = firstErrors(fromServer);
    expect(Object.keys(first)).toEqual(["__proto__", "toString"]);
    expect(first.toString).toBe("Unknown field");
    const byPath = errorsByPath([
      { path: ["toString"], message: "a" },
      { path: ["__proto__"], message: "b" },
    ]);
    expect(Object.entries(byPath)).toEqual([
      ["toString", "a"],
      ["__proto__", "b"],
    ]);
  });
});
