import { describe, expect, it } from "vitest";
import { ServiceTokenRefusals } from "@/lib/auth/service-token-refusals";
import type { ServiceTokenRefusal } from "@/lib/vocabulary";

const MINUTE = 60_000;
const T0 = Date.UTC(2025, 0, 1, 12, 0, 30);

describe("ServiceTokenRefusals", () => {
  it("counts per token and for unknown tokens over the current minute and the 59 before it", () => {
    const counted: ServiceTokenRefusal[] = [];
    const refusals = new ServiceTokenRefusals((reason) => counted.push(reason));
    refusals.note("revoked", 7, T0);
    refusals.note("revoked", 7, T0 + 10 * MINUTE);
    refusals.note("scope", 8, T0 + 20 * MINUTE);
    refusals.note("unknown", undefined, T0 + 30 * MINUTE);
    refusals.note("missing", undefined, T0 + 30 * MINUTE);
    expect(counted).toEqual(["revoked", "revoked", "scope", "unknown", "missing"]);

    const at = (ms: number) => {
      const { byToken, unknown } = refusals.lastHour(ms);
      return { byToken: Object.fromEntries(byToken), unknown };
    };
    // t0: 12:00:30. At 12:59:59 all are inside the hour (12:00 to 12:59).
    expect(at(T0 + 59 * MINUTE + 29_000)).toEqual({ byToken: { 7: 2, 8: 1 }, unknown: 2 });
    // At 13:00:00 the 12:00 minute has left the window.
    expect(at(T0 + 59 * MINUTE + 30_000)).toEqual({ byToken: { 7: 1, 8: 1 }, unknown: 2 });
    expect(at(T0 + 80 * MINUTE)).toEqual({ byToken: {}, unknown: 2 });
    expect(at(T0 + 90 * MINUTE)).toEqual({ byToken: {}, unknown: 0 });
  });

  it("reuses a minute's slot an hour later, starting it from zero", () => {
    const refusals = new ServiceTokenRefusals();
    for (let i = 0; i < 5; i++) refusals.note("revoked", 1, T0);
    refusals.note("revoked", 1, T0 + 60 * MINUTE);
    expect(refusals.lastHour(T0 + 60 * MINUTE).byToken.get(1)).toBe(1);
  });

  it("does not count a refusal ahead of the clock it is read at (time going backwards)", () => {
    const refusals = new ServiceTokenRefusals();
    refusals.note("unknown", undefined, T0 + 5 * MINUTE);
    expect(refusals.lastHour(T0).unknown).toBe(0);
    expect(refusals.lastHour(T0 + 5 * MINUTE).unknown).toBe(1);
  });
});
