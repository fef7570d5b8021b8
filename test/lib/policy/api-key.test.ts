import { describe, expect, it } from "vitest";
import { bearerToken, readBearer } from "@/lib/policy/api-key";

describe("readBearer", () => {
  it.each([
    ["Bearer rk_abc", { ok: true, token: "rk_abc" }],
    ["bearer\trk_abc ", { ok: true, token: "rk_abc" }],
    [undefined, { ok: false, problem: "missing" }],
    [null, { ok: false, problem: "missing" }],
    ["", { ok: false, problem: "missing" }],
    ["   ", { ok: false, problem: "missing" }],
    ["Bearer", { ok: false, problem: "missing" }],
    ["Bearer  ", { ok: false, problem: "missing" }],
    // Regression: these were all "Missing API key", though a key was sent.
    ["rk_abc", { ok: false, problem: "not_bearer" }],
    ["Basic dXNlcjpwYXNz", { ok: false, problem: "not_bearer" }],
    ["Bearerrk_abc", { ok: false, problem: "not_bearer" }],
    ["Bearer rk_a rk_b", { ok: false, problem: "malformed" }],
  ])("reads %j as %j", (header, read) => {
    expect(readBearer(header)).toEqual(read);
  });

  it("finds a token exactly when bearerToken does", () => {
    for (const header of ["Bearer x", "x", "Bearer", "Bearer a b", "BEARER  y\t", ""]) {
      const read = readBearer(header);
      expect(read.ok ? read.token : null).toBe(bearerToken(header));
    }
  });
});
