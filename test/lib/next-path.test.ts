import { describe, expect, it } from "vitest";
import { DEFAULT_NEXT_PATH, loginPathFor, safeNextPath } from "@/lib/next-path";

describe("safeNextPath", () => {
  it.each([
    "/overview",
    "/customers/12",
    "/plans/3?tab=limits#read",
    "/audit?before=40&limit=50",
    "/customers/a%20b",
    "/x%2541",
    "/",
  ])("keeps the same-origin path %j", (path) => {
    expect(safeNextPath(path)).toBe(path);
  });

  // Regression: `next=/%5Cevil.example` reached the page as `/\evil.example`, which passed a
  // starts-with-one-slash check and which browsers resolve to another host.
  it.each([
    // other hosts and schemes
    "//evil.example",
    "///evil.example",
    "https://evil.example",
    "http:/evil.example",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "evil.example",
    "overview",
    "",
    " /overview",
    // backslashes, raw and encoded, once or twice
    "/\\evil.example",
    "\\/evil.example",
    "/%5Cevil.example",
    "/%5cevil.example",
    "/%255Cevil.example",
    "/%25255Cevil.example",
    "%2F%2Fevil.example",
    "/%2F/evil.example",
    "/%2F%2Fevil.example",
    // control characters that the URL parser drops, raw and encoded
    "/\t/evil.example",
    "/%09/evil.example",
    "/%0A/evil.example",
    "/%0d/evil.example",
    "/%00/overview",
    "/\u0000/overview",
    "/%C2%85/evil.example",
    "/%2509/evil.example",
    // percent-encoding that does not decode
    "/%E0%A4%A",
    "/%",
    // too long, or too deeply encoded
    `/${"a".repeat(2_048)}`,
    "/%2525252525252525",
  ])("sends %j to the overview", (next) => {
    expect(safeNextPath(next)).toBe(DEFAULT_NEXT_PATH);
  });

  it("sends anything that is not one string to the overview", () => {
    for (const next of [undefined, null, 42, ["/plans", "//evil.example"], { toString: () => "/" }])
      expect(safeNextPath(next)).toBe(DEFAULT_NEXT_PATH);
  });

  it("never returns a value that resolves to another origin", () => {
    const base = "http://rk.test";
    const hostile = ["/", "\\", "%5C", "%2F", "%09", "\t", "%25", "evil.example", "@", ":"];
    // Every string of up to four pieces: the product covers the known tricks' building blocks.
    const build = (depth: number): string[] =>
      depth === 0 ? [""] : build(depth - 1).flatMap((s) => hostile.map((p) => s + p));
    for (const candidate of build(4)) {
      const result = safeNextPath(candidate);
      expect(new URL(result, base).origin, candidate).toBe(base);
      expect(result.startsWith("/") && !result.startsWith("//"), candidate).toBe(true);
      if (result !== DEFAULT_NEXT_PATH) expect(result, candidate).toBe(candidate);
    }
  });
});

describe("loginPathFor", () => {
  // Regression: a signed-out visit to `/customers?q=acme&plan=2` went to a bare /login, and
  // signing in landed on the overview.
  it("keeps the whole path and query as next, encoded once", () => {
    expect(loginPathFor("/customers?q=acme&plan=2")).toBe(
      "/login?next=%2Fcustomers%3Fq%3Dacme%26plan%3D2",
    );
    expect(loginPathFor("/customers/12")).toBe("/login?next=%2Fcustomers%2F12");
    const next = new URL(`http://x${loginPathFor("/audit?actor=a%26b")}`).searchParams.get("next");
    expect(next).toBe("/audit?actor=a%26b");
    expect(safeNextPath(next)).toBe(next);
  });

  it("drops Next's _rsc parameter and the fragment, keeping the rest as written", () => {
    expect(loginPathFor("/plans?_rsc=1x2&tab=a")).toBe("/login?next=%2Fplans%3Ftab%3Da");
    expect(loginPathFor("/plans?_rsc=1x2")).toBe("/login?next=%2Fplans");
    expect(loginPathFor("/plans#limits")).toBe("/login?next=%2Fplans");
  });

  it("gives the bare sign-in page for itself and for targets safeNextPath refuses", () => {
    expect(loginPathFor("/login")).toBe("/login");
    expect(loginPathFor("/login?next=%2Fplans")).toBe("/login");
    expect(loginPathFor("//evil.example/x")).toBe("/login");
    expect(loginPathFor("/%5Cevil.example")).toBe("/login");
  });
});
