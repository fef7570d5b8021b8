import { describe, expect, it } from "vitest";
import { tryItFor } from "@/components/service-tokens/try-it";
import { decisionRequestSchema } from "@/lib/schemas/decision.schema";

/** bodyOf reads the JSON body of a try-it command, with a customer key in its placeholder. */
function bodyOf(command: string): unknown {
  const body = /-d '(.*)'$/m.exec(command)?.[1] ?? "";
  return decisionRequestSchema.parse(JSON.parse(body.replace("rk_…customer key…", "rk_abc")));
}

describe("tryItFor", () => {
  it("gives a deciding token a call that takes a read token", () => {
    const tryIt = tryItFor("http://localhost:3000", "rks_x", ["decide"]);
    expect(tryIt.command).toContain("curl -s http://localhost:3000/api/v1/decisions");
    expect(tryIt.command).toContain('-H "Authorization: Bearer rks_x"');
    expect(bodyOf(tryIt.command)).toMatchObject({ operation: "read", peek: false });
    expect(tryIt.title).toBe("Try it: one decision with curl");
    expect(tryIt.note).toContain("takes one read token");
  });

  // Regression: a peek-only token was shown the deciding call, refused 403 for lack of decide.
  it("gives a peek-only token a call that peeks, and says it only peeks", () => {
    const tryIt = tryItFor("http://localhost:3000", "rks_x", ["peek"]);
    expect(tryIt.command).toContain('"peek": true');
    expect(bodyOf(tryIt.command)).toMatchObject({ operation: "read", peek: true });
    expect(tryIt.title).toBe("Try it: one peek with curl");
    expect(tryIt.note).toContain("This token only peeks");
  });

  it("lets a token with both scopes decide", () => {
    expect(bodyOf(tryItFor("http://x", "rks_x", ["decide", "peek"]).command)).toMatchObject({
      peek: false,
    });
  });
});
