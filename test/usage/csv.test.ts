import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "@/lib/usage/csv";

describe("csvCell", () => {
  it.each([
    ["Acme", "Acme"],
    ["Acme, Inc.", '"Acme, Inc."'],
    ['The "Best" Co', '"The ""Best"" Co"'],
    ["two\nlines", '"two\nlines"'],
    [" padded", '" padded"'],
    ["=SUM(A1:A9)", "'=SUM(A1:A9)"],
    ["+33 6 12", "'+33 6 12"],
    ["-5 apples", "'-5 apples"],
    ["@admin", "'@admin"],
    ["\tTab", "'\tTab"],
    ['=HYPERLINK("x"),1', '"\'=HYPERLINK(""x""),1"'],
    ["a=b", "a=b"],
  ])("writes %j as %j", (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it("writes numbers as they are, negative ones too, and ends records with CRLF", () => {
    expect(csvLine(["x", 12, -3, 0])).toBe("x,12,-3,0\r\n");
  });
});
