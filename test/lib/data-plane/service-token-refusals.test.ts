import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as listTokens } from "@/app/api/admin/service-tokens/route";
import { GET as metrics } from "@/app/api/metrics/route";
import { revokeServiceToken } from "@/lib/admin/service-tokens";
import { adminRequest, signIn } from "../../api/admin/admin-support";
import {
  type DataPlaneServer,
  postJson,
  serviceToken,
  startDataPlane,
} from "../../support/data-plane";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";

const MINUTE = 60_000;

// A service whose token is refused must show: in the metrics by reason, and on the Service
// tokens page per token (a revoked token's calls against it) and in one total for unknown ones.
describe("decision calls refused for their service token", () => {
  let t: TestRuntime;
  let server: DataPlaneServer;
  let cookie: string;
  const decide = (
    token: string | undefined,
    body: unknown = { key: t.demoKey, operation: "read" },
  ) => postJson(`${server.url}/api/v1/decisions`, body, token);
  const batch = (token: string) =>
    postJson(
      `${server.url}/api/v1/decisions/batch`,
      { decisions: [{ key: t.demoKey, operation: "read" }] },
      token,
    );
  const listed = async () => {
    const body = await (await listTokens(adminRequest("/x", { cookie }))).json();
    return {
      byName: Object.fromEntries(
        body.serviceTokens.map((s: { name: string; refusedLastHour: number }) => [
          s.name,
          s.refusedLastHour,
        ]),
      ),
      unknown: body.unknownRefusedLastHour,
    };
  };
  const scraped = async () => {
    const text = await (await metrics()).text();
    return Object.fromEntries(
      [...text.matchAll(/^ratekeeper_service_token_refusals_total\{reason="(\w+)"\} (\d+)$/gm)].map(
        (m) => [m[1], Number(m[2])],
      ),
    );
  };

  beforeEach(async () => {
    t = createTestRuntime();
    cookie = await signIn();
    server = await startDataPlane(t.runtime);
  });
  afterEach(async () => {
    await server.close();
    t.cleanup();
  });

  it("counts them in /api/metrics by reason: missing, unknown, revoked, scope", async () => {
    expect(await scraped()).toEqual({ missing: 0, unknown: 0, revoked: 0, scope: 0 });
    const revoked = serviceToken(t.runtime, ["decide"], "old");
    expect(revokeServiceToken(t.runtime, "admin", revoked.id).ok).toBe(true);
    const peek = serviceToken(t.runtime, ["peek"], "peeker");
    const good = serviceToken(t.runtime, ["decide"], "good");

    expect((await decide(undefined)).status).toBe(401);
    expect((await decide("rks_never-existed")).status).toBe(401);
    expect((await decide("rk_a-customer-key")).status).toBe(401);
    expect((await decide(revoked.token)).status).toBe(401);
    expect((await batch(revoked.token)).status).toBe(401);
    expect((await decide(peek.token)).status).toBe(403);
    expect((await batch(peek.token)).status).toBe(403);
    // Not refusals for the token: a peek with a peek token, a good token, a bad body.
    expect(
      (await decide(peek.token, { key: t.demoKey, operation: "read", peek: true })).status,
    ).toBe(200);
    expect((await decide(good.token)).status).toBe(200);
    expect((await decide(good.token, { operation: "read" })).status).toBe(400);

    expect(await scraped()).toEqual({ missing: 1, unknown: 2, revoked: 2, scope: 2 });
  });

  it("lists a revoked token's refused calls against it, a peek-only token's 403s against it, and unknown tokens in one total, for an hour", async () => {
    const revoked = serviceToken(t.runtime, ["decide"], "billing");
    const peek = serviceToken(t.runtime, ["peek"], "reports");
    serviceToken(t.runtime, ["decide"], "quiet");
    expect((await decide(revoked.token)).status).toBe(200);
    expect(revokeServiceToken(t.runtime, "admin", revoked.id).ok).toBe(true);
    expect(await listed()).toEqual({ byName: { billing: 0, reports: 0, quiet: 0 }, unknown: 0 });

    for (let i = 0; i < 3; i++) await decide(revoked.token);
    await decide(peek.token);
    await decide("rks_never-existed");
    await decide(undefined);
    expect(await listed()).toEqual({ byName: { billing: 3, reports: 1, quiet: 0 }, unknown: 2 });

    // An hour on the runtime's clock: the window moves past them.
    t.clock.advance(30 * MINUTE);
    await decide(revoked.token);
    t.clock.advance(30 * MINUTE);
    expect(await listed()).toEqual({ byName: { billing: 1, reports: 0, quiet: 0 }, unknown: 0 });
  });

  it("still counts a revoked token's calls against it once the policy is rebuilt from the database (the revoked hashes are in it)", async () => {
    const revoked = serviceToken(t.runtime, ["decide"], "billing");
    expect(revokeServiceToken(t.runtime, "admin", revoked.id).ok).toBe(true);
    t.runtime.policy.applyEdit();
    await decide(revoked.token);
    expect(await listed()).toEqual({ byName: { billing: 1 }, unknown: 0 });
  });
});
