import { describe, expect, it } from "vitest";
import { z } from "zod";
import { plainText, textIssue } from "@/lib/schemas/text.schema";

describe("textIssue", () => {
  it.each([
    "Acme",
    "Ünïcödé",
    "🚦 emoji pairs",
    "عربي right to left",
    "漢字",
    "a\u00a0b",
    "quotes ' \" and <tags>",
  ])("accepts %j as one line", (value) => {
    expect(textIssue(value)).toBeNull();
  });

  it.each([
    ["NUL", "\u0000abc"],
    ["tab", "a\tb"],
    ["line feed", "a\nb"],
    ["carriage return", "a\rb"],
    ["escape", "\u001b[31m"],
    ["delete", "a\u007f"],
    ["C1 next line", "a\u0085"],
    ["line separator", "a\u2028b"],
    ["lone high surrogate", "\ud83d"],
    ["lone high surrogate before text", "\ud83dabc"],
    ["lone low surrogate", "abc\ude00"],
    ["reversed pair", "\ude00\ud83d"],
  ])("refuses a line with a %s", (_, value) => {
    expect(textIssue(value)).toEqual(expect.any(String));
  });

  it("lets a block keep tabs and line breaks, and nothing else", () => {
    expect(textIssue("one\r\ntwo\tthree\n", "block")).toBeNull();
    expect(textIssue("one\u0000", "block")).toEqual(expect.any(String));
    expect(textIssue("one\u000b", "block")).toEqual(expect.any(String));
    expect(textIssue("\udc00", "block")).toEqual(expect.any(String));
  });
});

describe("plainText", () => {
  it("adds the check to a string schema, after its trim", () => {
    const schema = plainText(z.string().trim().min(1));
    expect(schema.parse("  padded\n")).toBe("padded");
    const refused = schema.safeParse("\u0000abc");
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => i.message)).toEqual([
      "Must not contain control characters or line breaks",
    ]);
  });
});
