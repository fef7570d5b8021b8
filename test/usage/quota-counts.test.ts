import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { quotaCounts } from "@/db/schema";
import { createRuntime, type Runtime } from "@/lib/runtime";
import { FakeClock } from "../support/fake-clock";
import { quotaInput } from "../support/quota-input";
import { START_MS } from "../support/runtime";

/** MID_JANUARY is within the UTC month of START_MS (2025-01-01). */
const MID_JANUARY = START_MS + 14 * 86_400_000;

describe("quota counts in memory mode survive a restart (quota_counts)", () => {
  const opened: Runtime[] = [];
  let dir: string | undefined;
  afterEach(() => {
    vi.useRealTimers();
    for (const runtime of opened.splice(0)) runtime.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  function start(clock: FakeClock, timers = false): Runtime {
    dir ??= mkdtempSync(path.join(os.tmpdir(), "ratekeeper-quota-"));
    const runtime = createRuntime({
      databasePath: path.join(dir, "q.db"),
      clock,
      adminPassword: "test-password",
      log: { info() {}, warn() {}, error() {} },
      tokenUseFlushIntervalMs: 0,
      usage: timers ? { flushIntervalMs: 2_000 } : { timers: false },
    });
    opened.push(runtime);
    return runtime;
  }

  function demoOf(runtime: Runtime) {
    const demo = [...runtime.policy.snapshot.byId.values()][0];
    if (!demo) throw new Error("no demo customer");
    return demo;
  }

  /** used reads the tokens used of the demo's monthly quota, by a peek (taking nothing). */
  function used(runtime: Runtime, now: number): number {
    const details = runtime.limiter.peekNWithDebug(quotaInput(demoOf(runtime), now), 0);
    return details.quotas?.[0]?.used ?? Number.NaN;
  }

  function take(runtime: Runtime, now: number, n: number): boolean {
    return runtime.limiter.allowN(quotaInput(demoOf(runtime), now), n);
  }

  it("a graceful restart mid-period keeps the count; the restarted limiter refuses past it", () => {
    const clock = new FakeClock(MID_JANUARY);
    const first = start(clock);
    expect(take(first, clock.now(), 3)).toBe(true);
    first.close();
    opened.splice(opened.indexOf(first), 1);
    clock.advance(3_600_000);
    const second = start(clock);
    expect(used(second, clock.now())).toBe(3);
    expect(take(second, clock.now(), 2)).toBe(true);
    expect(take(second, clock.now(), 1)).toBe(false);
  });

  it("a restart after the period's end starts at zero and deletes the past period's row", () => {
    const clock = new FakeClock(MID_JANUARY);
    const first = start(clock);
    expect(take(first, clock.now(), 5)).toBe(true);
    first.close();
    opened.splice(opened.indexOf(first), 1);
    clock.set(Date.UTC(2025, 1, 1));
    const second = start(clock);
    expect(used(second, clock.now())).toBe(0);
    expect(second.db.select().from(quotaCounts).all()).toEqual([]);
    expect(take(second, clock.now(), 5)).toBe(true);
  });

  it("a crash loses only the decisions since the last save (the last flush)", () => {
    const clock = new FakeClock(MID_JANUARY);
    const crashed = start(clock);
    expect(take(crashed, clock.now(), 2)).toBe(true);
    expect(crashed.quotaCounts?.save()).toBe(1);
    expect(take(crashed, clock.now(), 1)).toBe(true);
    // No close: a crash. Another process opens the same database.
    const next = start(clock);
    expect(used(next, clock.now())).toBe(2);
  });

  it("each save writes only the states that changed, and deletes a reset key's row", () => {
    const clock = new FakeClock(MID_JANUARY);
    const runtime = start(clock);
    const saver = runtime.quotaCounts;
    if (!saver) throw new Error("memory mode keeps quota counts");
    expect(take(runtime, clock.now(), 1)).toBe(true);
    expect(saver.save()).toBe(1);
    expect(saver.save()).toBe(0);
    expect(take(runtime, clock.now(), 1)).toBe(true);
    const [row] = runtime.db.select().from(quotaCounts).all();
    expect(saver.save()).toBe(1);
    expect(runtime.db.select().from(quotaCounts).all()).toEqual([
      { ...row, used: 2, updatedAt: clock.now() },
    ]);
    runtime.limiter.forget(`${demoOf(runtime).id}:read`);
    expect(saver.save()).toBe(1);
    expect(runtime.db.select().from(quotaCounts).all()).toEqual([]);
  });

  it("the flush timer saves the counts after each flush", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "setTimeout", "clearTimeout"] });
    const clock = new FakeClock(MID_JANUARY);
    const runtime = start(clock, true);
    expect(take(runtime, clock.now(), 4)).toBe(true);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(runtime.db.select().from(quotaCounts).all()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(runtime.db.select().from(quotaCounts).all()).toMatchObject([{ used: 4 }]);
  });
});
