import { describe, expect, it } from "vitest";
import { malformedPath } from "@/lib/http/request-target";

describe("malformedPath", () => {
  it.each([
    "/api/admin/plans/%E0%A4%A",
    "/api/v1/items/%",
    "/api/v1/items/%G0",
    "/%C0%AF",
    "/%FF",
    "/%ED%A0%80",
    "/a/%E0%A4/%A4",
    "/%?limit=1",
  ])("finds %s malformed", (target) => {
    expect(malformedPath(target)).toBe(true);
  });

  it.each([
    "/",
    "/api/v1/items/12",
    "/api/admin/plans/%E2%9C%93",
    "/customers/a%20b",
    "/api/v1/items?limit=%",
    "/api/v1/items?%E0%A4%A=1",
    "/login#%",
  ])("finds %s well-formed (the query and fragment are the handlers' to judge)", (target) => {
    expect(malformedPath(target)).toBe(false);
  });
});
