import { describe, expect, it } from "vitest";
import type { Clock } from "@/lib/limiter";
import { MemoryDecisionStore } from "@/lib/policy/decision-store";
import { createPolicyLimiter } from "@/lib/policy/policy-limiter";
import { buildSnapshot } from "@/lib/policy/snapshot";
import { MAX_COST } from "@/lib/schemas/cost.schema";
import { runSimulation, simulate, timestampsOf } from "@/lib/simulator/simulate";
import type { PolicyLimit } from "@/lib/vocabulary";

const perSecond = (count: number) => ({ count, periodMs: 1_000 });

describe("simulate: known patterns against hand arithmetic", () => {
  it("10 per second, steady 20 req/s for 5 s: 59 allowed, 41 denied", () => {
    // A token is 100 ms. Requests come every 50 ms, at t = 50j. The bucket starts full (10
    // tokens, spent-up-to time -1000) and each allow moves that time by 100 ms, so before
    // request j it holds floor((1000 - 50j) / 100) tokens: j = 0..18 pass (j = 18 finds one),
    // j = 19 (t = 950) finds none. From then on the bucket is empty and earns a token every
    // 100 ms: even j pass, odd j fail, 10 of 20 each second. 19 + 4 * 10 = 59.
    const result = simulate([perSecond(10)], { kind: "steady", ratePerSecond: 20, seconds: 5 });
    expect(result.totals).toEqual({ requests: 100, allowed: 59, denied: 41, allowedShare: 0.59 });
    expect(result.seconds).toEqual([
      { t: 0, allowed: 19, denied: 1 },
      { t: 1_000, allowed: 10, denied: 10 },
      { t: 2_000, allowed: 10, denied: 10 },
      { t: 3_000, allowed: 10, denied: 10 },
      { t: 4_000, allowed: 10, denied: 10 },
    ]);
  });

  it("10 per second, bursts of 15 every 0.5 s for 2 s: 10, then 5 a burst", () => {
    // Bursts at 0, 500, 1000, 1500. The first finds 10 tokens; each later one finds the 5
    // tokens earned in the 500 ms since the bucket ran dry. 10 + 5 + 5 + 5 = 25 of 60.
    const result = simulate([perSecond(10)], {
      kind: "bursts",
      size: 15,
      everySeconds: 0.5,
      seconds: 2,
    });
    expect(result.totals).toMatchObject({ requests: 60, allowed: 25, denied: 35 });
    expect(result.seconds).toEqual([
      { t: 0, allowed: 15, denied: 15 },
      { t: 1_000, allowed: 10, denied: 20 },
    ]);
  });

  it("bursts that wait out the period find a full bucket each time", () => {
    const result = simulate([perSecond(10)], {
      kind: "bursts",
      size: 15,
      everySeconds: 2,
      seconds: 6,
    });
    expect(result.totals).toMatchObject({ requests: 45, allowed: 30, denied: 15 });
    expect(result.seconds.map((s) => s.allowed)).toEqual([10, 0, 10, 0, 10, 0]);
  });

  it("2 per second, pasted timestamps: the same instant drains, a second later refills", () => {
    // 0, 0 pass and empty the bucket (a token is 500 ms); 0, 100, 150 fail; at 1000 two
    // tokens are back: both pass.
    const result = runSimulation([perSecond(2)], [1000, 0, 150, 0, 100, 0, 1000]);
    expect(result.totals).toMatchObject({ requests: 7, allowed: 4, denied: 3 });
    expect(result.seconds).toEqual([
      { t: 0, allowed: 2, denied: 3 },
      { t: 1_000, allowed: 2, denied: 0 },
    ]);
  });

  it("two limits decide all or nothing: 10 per second and 15 per minute", () => {
    // The minute limit (a token is 4 s) passes j = 0..14 (t = 0..700) and then nothing until
    // t = 4000 (j = 80), where the second limit is full again: 16 allowed. Denials take
    // nothing from the second limit, or j = 80 would have failed.
    const result = simulate([perSecond(10), { count: 15, periodMs: 60_000 }], {
      kind: "steady",
      ratePerSecond: 20,
      seconds: 5,
    });
    expect(result.totals).toMatchObject({ requests: 100, allowed: 16, denied: 84 });
    expect(result.seconds.map((s) => s.allowed)).toEqual([15, 0, 0, 0, 1]);
  });

  it("a cost of 3 at 5 req/s against 10 per second passes two requests in three, after the first burst", () => {
    // Requests every 200 ms earn 2 tokens each and spend 3: the 10 tokens of the full bucket
    // carry t = 0..1400 (8 requests); then a cycle of allow, allow, deny: 1800, 2000, 2400, 2600.
    const result = simulate([perSecond(10)], { kind: "steady", ratePerSecond: 5, seconds: 3 }, 3);
    expect(result.totals).toMatchObject({ requests: 15, allowed: 12, denied: 3 });
    expect(result.seconds).toEqual([
      { t: 0, allowed: 5, denied: 0 },
      { t: 1_000, allowed: 4, denied: 1 },
      { t: 2_000, allowed: 3, denied: 2 },
    ]);
  });

  it("a cost above a limit's count never passes", () => {
    const pattern = { kind: "steady", ratePerSecond: 4, seconds: 2 } as const;
    expect(simulate([perSecond(10)], pattern, 11).totals).toMatchObject({
      allowed: 0,
      denied: 8,
    });
  });

  // Regression: a cost of 1,000,000 against 10 per second showed only "Denied 200", where the
  // server answers every such request 413, however long it waits.
  it("names the enforced limits a cost can never pass, as the server's 413 does", () => {
    const pattern = { kind: "steady", ratePerSecond: 20, seconds: 10 } as const;
    const limits: PolicyLimit[] = [
      perSecond(10),
      { count: 1_000_000, periodMs: 86_400_000 },
      { count: 5, periodMs: 60_000, dryRun: true },
    ];
    const result = simulate(limits, pattern, 1_000_000);
    expect(result.totals).toMatchObject({ requests: 200, allowed: 0, denied: 200 });
    // The day's limit holds the cost, and a dry-run limit never refuses: neither is named.
    expect(result.tooLarge).toEqual([perSecond(10)]);
    expect(simulate(limits, pattern, 10).tooLarge).toEqual([]);
    expect(simulate([perSecond(10), perSecond(3)], pattern, 11).tooLarge).toEqual([
      perSecond(10),
      perSecond(3),
    ]);
    expect(simulate([], pattern, MAX_COST).tooLarge).toEqual([]);
  });

  it("refuses a cost outside the server's cost rule with a RangeError, as decide does", () => {
    const pattern = { kind: "steady", ratePerSecond: 4, seconds: 2 } as const;
    // Regression: a cost of 0 passed every request, where the server refuses such a cost.
    for (const cost of [0, -1, 1.5, MAX_COST + 1]) {
      expect(() => simulate([perSecond(1)], pattern, cost)).toThrow(RangeError);
    }
    expect(simulate([], pattern, MAX_COST).totals).toMatchObject({ allowed: 8, denied: 0 });
  });

  it("no limits allow everything", () => {
    const result = simulate([], { kind: "steady", ratePerSecond: 100, seconds: 2 });
    expect(result.totals).toEqual({ requests: 200, allowed: 200, denied: 0, allowedShare: 1 });
  });

  it("keeps empty seconds between requests and reports nothing for no requests", () => {
    expect(runSimulation([perSecond(1)], [0, 3_500]).seconds).toEqual([
      { t: 0, allowed: 1, denied: 0 },
      { t: 1_000, allowed: 0, denied: 0 },
      { t: 2_000, allowed: 0, denied: 0 },
      { t: 3_000, allowed: 1, denied: 0 },
    ]);
    expect(runSimulation([perSecond(1)], [])).toEqual({
      seconds: [],
      totals: { requests: 0, allowed: 0, denied: 0, allowedShare: 0 },
      dryRun: { wouldRefuse: 0, limits: [] },
      tooLarge: [],
    });
  });

  it("refuses negative offsets", () => {
    expect(() => runSimulation([perSecond(1)], [5, -1])).toThrow(RangeError);
  });
});

describe("simulate: the reported span", () => {
  it("covers a pattern's quiet tail", () => {
    const result = simulate([perSecond(5)], {
      kind: "bursts",
      size: 1,
      everySeconds: 10,
      seconds: 3,
    });
    expect(result.seconds.map((s) => s.t)).toEqual([0, 1_000, 2_000]);
  });
});

describe("simulate: dry-run limits", () => {
  const bursts = { kind: "bursts", size: 15, everySeconds: 1, seconds: 10 } as const;

  it("a dry-run limit never denies: enforced 3/s with a dry-run 2/s allows 30 of bursts of 15 a second for 10 s", () => {
    // Regression: the dry-run 2/s was enforced too, and the simulator said 20 allowed. Each
    // second the 3/s bucket admits 3; the dry-run 2/s bucket takes 2 of them and would have
    // refused the third: 10 would-be refusals, all the dry-run limit's.
    const result = simulate([perSecond(3), { ...perSecond(2), dryRun: true }], bursts);
    expect(result.totals).toMatchObject({ requests: 150, allowed: 30, denied: 120 });
    expect(result.seconds.every((s) => s.allowed === 3)).toBe(true);
    expect(result.dryRun).toEqual({
      wouldRefuse: 10,
      limits: [{ limit: perSecond(2), wouldRefuse: 10 }],
    });
  });

  it("dry-run limits alone allow everything and count what they would have refused", () => {
    const result = simulate([{ ...perSecond(5), dryRun: true }], bursts);
    expect(result.totals).toMatchObject({ requests: 150, allowed: 150, denied: 0 });
    expect(result.dryRun.wouldRefuse).toBe(100);
  });

  it("a dry-run refusal takes no tokens and names only the limits that lacked them", () => {
    // 10/s and 2/min tried together, all or nothing: 0 and 0 pass both; from then on the
    // minute lacks tokens, the second does not (a refusal takes nothing from it).
    const result = runSimulation(
      [
        perSecond(100),
        { ...perSecond(10), dryRun: true },
        { count: 2, periodMs: 60_000, dryRun: true },
      ],
      [0, 0, 0, 0, 0],
    );
    expect(result.dryRun).toEqual({
      wouldRefuse: 3,
      limits: [
        { limit: perSecond(10), wouldRefuse: 0 },
        { limit: { count: 2, periodMs: 60_000 }, wouldRefuse: 3 },
      ],
    });
  });

  it("agrees with the server's decision store, enforced and dry-run, request by request", () => {
    const limits: PolicyLimit[] = [
      perSecond(3),
      { count: 20, periodMs: 60_000 },
      { ...perSecond(2), dryRun: true },
      { count: 12, periodMs: 10_000, dryRun: true },
    ];
    const pattern = { kind: "ramp", fromPerSecond: 1, toPerSecond: 9, seconds: 30 } as const;
    let now = 0;
    const clock: Clock = { now: () => now };
    const snapshot = buildSnapshot(
      {
        plans: [
          { id: 1, slug: "p", name: "P", limits: limits.map((l) => ({ ...l, operation: "read" })) },
        ],
        customers: [
          { id: 7, name: "C", status: "active", planId: 1, apiKeyHash: "h", billingAnchorDay: 1 },
        ],
        overrides: [],
        serviceTokens: [],
      },
      0,
    );
    const customer = snapshot.byId.get(7);
    if (!customer) throw new Error("no customer in the snapshot");
    const store = new MemoryDecisionStore(createPolicyLimiter(clock));
    let allowed = 0;
    let wouldRefuse = 0;
    for (const t of timestampsOf(pattern)) {
      now = t;
      const decision = store.decide({ customer, operation: "read", now: t }, 1);
      if (!(decision instanceof Promise) && decision.details.allowed) {
        allowed++;
        if (decision.dryRun && !decision.dryRun.allowed) wouldRefuse++;
      }
    }
    const result = simulate(limits, pattern);
    expect(result.totals.allowed).toBe(allowed);
    expect(result.dryRun.wouldRefuse).toBe(wouldRefuse);
    expect(wouldRefuse).toBeGreaterThan(0);
  });
});
