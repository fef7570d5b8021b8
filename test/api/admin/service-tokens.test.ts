import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DELETE as revoke } from "@/app/api/admin/service-tokens/[id]/route";
import { POST as create, GET as list } from "@/app/api/admin/service-tokens/route";
import { listAudit } from "@/db/queries/audit";
import { listServiceTokens } from "@/db/queries/service-tokens";
import { hashServiceToken } from "@/lib/auth/service-token";
import { type DataPlaneServer, postJson, startDataPlane } from "../../support/data-plane";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { tableRows } from "../../support/tables";
import { adminRequest, params, signIn } from "./admin-support";

let t: TestRuntime;
let cookie: string;
let server: DataPlaneServer;
beforeEach(async () => {
  t = createTestRuntime();
  cookie = await signIn();
  server = await startDataPlane(t.runtime);
});
afterEach(async () => {
  await server.close();
  t.cleanup();
});

const post = (body: unknown) => create(adminRequest("/api/admin/service-tokens", { cookie, body }));
const remove = (id: number | string) =>
  revoke(adminRequest("/x", { method: "DELETE", cookie }), params({ id: String(id) }));
const tokens = async () =>
  (await (await list(adminRequest("/x", { cookie }))).json()).serviceTokens;
const decideWith = (token: string) =>
  postJson(`${server.url}/api/v1/decisions`, { key: t.demoKey, operation: "read" }, token);

function stored() {
  return {
    tokens: listServiceTokens(t.runtime.db),
    audit: listAudit(t.runtime.db, { limit: 1_000 }),
  };
}

describe("service tokens", () => {
  it("creates a token that is shown once, stored as a hash, and works at once", async () => {
    const res = await post({ name: "checkout service", scopes: ["decide"] });
    expect(res.status).toBe(201);
    const { serviceToken, token } = await res.json();
    expect(token).toMatch(/^rks_[\w-]{32}$/);
    expect(serviceToken).toEqual({
      id: expect.any(Number),
      name: "checkout service",
      prefix: token.slice(0, 12),
      scopes: ["decide"],
      createdAt: t.clock.now(),
      createdBy: "admin",
      lastUsedAt: null,
      revokedAt: null,
    });
    // Only the hash is stored: the token is nowhere in the database file.
    const row = t.runtime.sqlite
      .prepare("SELECT token_hash FROM service_tokens WHERE id = ?")
      .get(serviceToken.id) as { token_hash: string };
    expect(row.token_hash).toBe(hashServiceToken(token));
    t.runtime.sqlite.pragma("wal_checkpoint(TRUNCATE)");
    expect(readFileSync(t.databasePath).includes(token)).toBe(false);
    // The list never shows it again.
    const listed = await tokens();
    expect(listed).toEqual([{ ...serviceToken, refusedLastHour: 0 }]);
    expect(JSON.stringify(listed)).not.toContain(token);
    expect((await decideWith(token)).status).toBe(200);
  });

  it("audits creation and revocation, without the token", async () => {
    const { serviceToken, token } = await (
      await post({ name: "edge", scopes: ["peek", "decide"] })
    ).json();
    t.clock.advance(5_000);
    expect((await remove(serviceToken.id)).status).toBe(204);
    const entries = listAudit(t.runtime.db, { limit: 10 }).filter(
      (e) => e.entityType === "service-token",
    );
    expect(entries.map((e) => e.action)).toEqual(["service-token.revoke", "service-token.create"]);
    expect(entries[1]).toMatchObject({
      actor: "admin",
      entityId: String(serviceToken.id),
      before: null,
    });
    expect(entries[0]).toMatchObject({
      before: { revokedAt: null, name: "edge" },
      after: { revokedAt: t.clock.now() },
    });
    expect(JSON.stringify(entries)).not.toContain(token);
  });

  it("revokes at once: the next decision is 401; the token stays listed as revoked", async () => {
    const { serviceToken, token } = await (
      await post({ name: "billing", scopes: ["decide"] })
    ).json();
    expect((await decideWith(token)).status).toBe(200);
    expect((await remove(serviceToken.id)).status).toBe(204);
    const refused = await decideWith(token);
    expect(refused.status).toBe(401);
    const [listed] = await tokens();
    expect(listed).toMatchObject({ id: serviceToken.id, revokedAt: t.clock.now() });
    // Revoking twice, or an unknown token, changes nothing.
    const before = stored();
    const again = await remove(serviceToken.id);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ title: "Service token already revoked" });
    expect((await remove(9_999)).status).toBe(404);
    expect((await remove("abc")).status).toBe(404);
    expect(stored()).toEqual(before);
  });

  it("keeps the last use in memory and writes it at most once a minute per token", async () => {
    const { serviceToken, token } = await (await post({ name: "api", scopes: ["decide"] })).json();
    const start = t.clock.now();
    expect((await decideWith(token)).status).toBe(200);
    // Listed from memory at once; not written by the decision itself.
    expect((await tokens())[0].lastUsedAt).toBe(start);
    expect(listServiceTokens(t.runtime.db)[0]?.lastUsedAt).toBeNull();
    expect(t.runtime.serviceTokenUsage.flush(t.clock.now())).toBe(1);
    expect(listServiceTokens(t.runtime.db)[0]?.lastUsedAt).toBe(start);

    t.clock.advance(30_000);
    await decideWith(token);
    expect((await tokens())[0].lastUsedAt).toBe(start + 30_000);
    // Within the minute nothing is written...
    expect(t.runtime.serviceTokenUsage.flush(t.clock.now())).toBe(0);
    expect(listServiceTokens(t.runtime.db)[0]?.lastUsedAt).toBe(start);
    // ...a minute after the last write it is.
    t.clock.advance(30_000);
    expect(t.runtime.serviceTokenUsage.flush(t.clock.now())).toBe(1);
    expect(listServiceTokens(t.runtime.db)[0]?.lastUsedAt).toBe(start + 30_000);
    // Nothing new: nothing to write.
    t.clock.advance(120_000);
    expect(t.runtime.serviceTokenUsage.flush(t.clock.now())).toBe(0);
    expect(serviceToken.id).toBe(listServiceTokens(t.runtime.db)[0]?.id);
  });

  it("writes pending last uses when the runtime closes", async () => {
    const { token } = await (await post({ name: "shutdown", scopes: ["decide"] })).json();
    await decideWith(token);
    expect(t.runtime.serviceTokenUsage.flush(t.clock.now())).toBe(1);
    t.clock.advance(10_000);
    await decideWith(token);
    const used = t.clock.now();
    t.runtime.close();
    const file = new Database(t.databasePath, { readonly: true });
    const row = file.prepare("SELECT last_used_at FROM service_tokens").get() as {
      last_used_at: number;
    };
    file.close();
    expect(row.last_used_at).toBe(used);
  });

  // Regression: "Choose at least one scope: decide and peek" read as if both were required.
  it.each([
    [{}, { name: ["Name is required"], scopes: ["Choose at least one scope: decide or peek"] }],
    [{ name: "  ", scopes: ["decide"] }, { name: ["Name is required"] }],
    [
      { name: "x".repeat(81), scopes: ["decide"] },
      { name: ["Name must be at most 80 characters"] },
    ],
    [{ name: "a", scopes: [] }, { scopes: ["Choose at least one scope: decide or peek"] }],
    [{ name: "a", scopes: ["decide", "decide"] }, { scopes: ["Name each scope once"] }],
    [{ name: "a", scopes: ["decide"], token: "rks_mine" }, { token: ["Unknown field"] }],
  ])("refuses %o with 400 and field errors, storing nothing", async (body, errors) => {
    const before = stored();
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const problem = await res.json();
    expect(problem.errors).toEqual(errors);
    expect(stored()).toEqual(before);
  });

  // Regression: ["admin"] was answered "Unknown scope: decide or peek", naming not what was
  // given, and a string instead of a list "Choose at least one scope".
  it.each([
    [["admin"], { "scopes.0": ['Unknown scope "admin": the scopes are decide and peek'] }],
    [
      ["decide", "x".repeat(100)],
      { "scopes.1": [`Unknown scope "${"x".repeat(40)}…": the scopes are decide and peek`] },
    ],
    [[7], { "scopes.0": ["Each scope must be a word: decide and peek"] }],
    ["decide", { scopes: ['Scopes must be a list, such as ["decide"]'] }],
    [null, { scopes: ['Scopes must be a list, such as ["decide"]'] }],
  ])("names what was wrong with scopes %o and what the scopes are", async (scopes, errors) => {
    const res = await post({ name: "a", scopes });
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual(errors);
  });

  it("needs an operator session", async () => {
    const anonymous = { method: "POST", body: { name: "x", scopes: ["decide"] } };
    expect((await create(adminRequest("/x", anonymous))).status).toBe(401);
    expect((await list(adminRequest("/x"))).status).toBe(401);
    const { serviceToken } = await (await post({ name: "kept", scopes: ["decide"] })).json();
    const res = await revoke(
      adminRequest("/x", { method: "DELETE" }),
      params({ id: String(serviceToken.id) }),
    );
    expect(res.status).toBe(401);
    expect((await tokens())[0].revokedAt).toBeNull();
  });
});

describe("service tokens: hostile input", () => {
  const PROTOTYPE_KEYS = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];

  it.each(PROTOTYPE_KEYS)(
    "refuses %s as an unknown field with 400, writing nothing",
    async (key) => {
      const before = tableRows(t.runtime);
      const res = await create(
        adminRequest("/api/admin/service-tokens", {
          cookie,
          rawBody: `{"name":"x","scopes":["decide"],"${key}":1}`,
        }),
      );
      expect(res.status).toBe(400);
      expect((await res.json()).errors).toEqual({ [key]: ["Unknown field"] });
      expect(tableRows(t.runtime)).toEqual(before);
      // The decision API refuses it the same way, deciding nothing.
      const { token } = await (await post({ name: `k-${key}`, scopes: ["decide"] })).json();
      const decision = await postJson(
        `${server.url}/api/v1/decisions`,
        `{"key":"${t.demoKey}","operation":"read","${key}":1}`,
        token,
      );
      expect(decision.status).toBe(400);
      expect((await decision.json()).errors).toEqual({ [key]: ["Unknown field"] });
      expect(t.runtime.traffic.totals(t.clock.now(), 60).get(t.demoId)).toBeUndefined();
    },
  );

  it.each(["bad\u0000name", "tab\tname", "line\u2028separator", "lone \ud800 surrogate"])(
    "refuses the name %j with 400 at the field",
    async (name) => {
      const before = tableRows(t.runtime);
      const res = await post({ name, scopes: ["decide"] });
      expect(res.status).toBe(400);
      expect(Object.keys((await res.json()).errors)).toEqual(["name"]);
      expect(tableRows(t.runtime)).toEqual(before);
    },
  );

  it("counts a malformed session cookie as no session: 401", async () => {
    for (const bad of ["rk_session=%E0%A4%A", "rk_session=%"]) {
      expect((await list(adminRequest("/x", { cookie: bad }))).status).toBe(401);
      const res = await revoke(
        adminRequest("/x", { method: "DELETE", cookie: bad }),
        params({ id: "1" }),
      );
      expect(res.status).toBe(401);
    }
  });
});
