import { describe, expect, it } from "vitest";
import { jsonTypeOf } from "@/lib/http/media-type";

describe("jsonTypeOf", () => {
  it.each([
    "application/json",
    "Application/JSON",
    " application/json ",
    "application/json;charset=utf-8",
    "application/json; charset=UTF-8",
    'application/json; charset="utf-8"',
    "application/json; boundary=x; Charset=utf-8",
  ])("reads %j as JSON we read", (type) => {
    expect(jsonTypeOf(type)).toBe("json");
  });

  // Regression: `charset=latin1` passed, and the body was read as UTF-8 all the same.
  it.each([
    "application/json; charset=latin1",
    "application/json;charset=ISO-8859-1",
    'application/json; charset="utf-16"',
    "application/json; charset=",
    "application/json; charset=utf-8; charset=latin1",
  ])("reads %j as JSON in another charset", (type) => {
    expect(jsonTypeOf(type)).toBe("other-charset");
  });

  it.each(["text/plain", "application/jsonx", "application/problem+json", "", "json"])(
    "reads %j as not JSON",
    (type) => {
      expect(jsonTypeOf(type)).toBe("not-json");
    },
  );
});
