import { describe, expect, it } from "vitest";
import { z } from "zod";
import { INVALID_JSON, REPEATED_KEY, readJsonText } from "@/lib/http/json-text";

describe("readJsonText", () => {
  const schema = z
    .object({ operation: z.enum(["read", "write"]), cost: z.number().optional() })
    .strict();

  it("reads and validates a body", () => {
    expect(readJsonText('{"operation":"read"}', schema)).toEqual({
      ok: true,
      data: { operation: "read" },
    });
    expect(readJsonText("{operation:", schema)).toEqual({
      ok: false,
      errors: { "": [INVALID_JSON] },
    });
  });

  // Regression: the last of two keys won, so this body took a write token.
  it("refuses a key given twice, even when both values are valid, at the key's path", () => {
    expect(readJsonText('{"operation":"read","operation":"write"}', schema)).toEqual({
      ok: false,
      errors: { operation: [REPEATED_KEY] },
    });
    expect(readJsonText('{"operation":"read","\\u006fperation":"read"}', schema)).toEqual({
      ok: false,
      errors: { operation: [REPEATED_KEY] },
    });
  });

  it("reports a repeated key with every other error of the body, in place of its value's", () => {
    const read = readJsonText('{"cost":"x","operation":"read","operation":"delete","n":1}', schema);
    expect(read).toEqual({
      ok: false,
      errors: { cost: [expect.any(String)], operation: [REPEATED_KEY], n: ["Unknown field"] },
    });
  });

  it("drops what the schema said of anything inside a repeated key's last value", () => {
    const nested = z.object({ limits: z.array(z.object({ count: z.number() }).strict()) });
    const read = readJsonText('{"limits":[{"count":1}],"limits":[{"count":"x","n":1}]}', nested);
    expect(read).toEqual({ ok: false, errors: { limits: [REPEATED_KEY] } });
  });
});
