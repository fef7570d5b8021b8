import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { aggregateUsage } from "@/db/queries/usage";
import { getFoldWatermark } from "@/db/queries/usage-rollup";
import { createRuntime, type Runtime } from "@/lib/runtime";
import { DAY_MS, HOUR_MS } from "@/lib/usage/time";
import { UsageTimers } from "@/lib/usage/usage-timers";
import { FakeClock } from "../support/fake-clock";
import { START_MS } from "../support/runtime";

describe("the usage timers", () => {
  let runtime: Runtime | undefined;
  let dir: string | undefined;
  afterEach(() => {
    runtime?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    vi.useRealTimers();
  });

  it("flush every flush interval and fold once a minute by themselves, and stop at close", async () => {
    // Fake timers drive the intervals; the runtime's own clock is a FakeClock, as everywhere.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "setTimeout", "clearTimeout"] });
    dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-timers-"));
    const clock = new FakeClock(START_MS + 2 * HOUR_MS);
    runtime = createRuntime({
      databasePath: path.join(dir, "t.db"),
      clock,
      adminPassword: "test-password",
      log: { info() {}, warn() {}, error() {} },
      usage: { flushIntervalMs: 2_000 },
    });
    const demo = [...runtime.policy.snapshot.byId.values()][0];
    if (!demo) throw new Error("no demo customer");
    const range = { fromMs: START_MS, toMs: START_MS + DAY_MS };
    runtime.usage.record(demo.id, demo.planId, "read", "allowed", 1, 1, clock.now());
    await vi.advanceTimersByTimeAsync(1_999);
    expect(aggregateUsage(runtime.db, "minutes", range, [])[0]?.allowed ?? 0).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(aggregateUsage(runtime.db, "minutes", range, [])[0]?.allowed).toBe(1);
    // The first fold ran at start; the next a minute later, at the clock's time then.
    expect(getFoldWatermark(runtime.db)).toBe(START_MS + HOUR_MS);
    clock.advance(HOUR_MS);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(getFoldWatermark(runtime.db)).toBe(START_MS + 2 * HOUR_MS);
    runtime.close();
    runtime = undefined;
    expect(vi.getTimerCount()).toBe(0);
  });

  it("logs a failed flush or claim on one line with its cause and what becomes of the counts, no stack", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const lines: { level: string; message: string; cause: unknown }[] = [];
    const record = (level: string) => (message: string, cause?: unknown) =>
      lines.push({ level, message, cause });
    let flushFails = true;
    const timers = new UsageTimers({
      flushIntervalMs: 1_000,
      everyFlush: [
        {
          what: "flush",
          run: async () => {
            if (flushFails) throw new Error("Command timed out");
          },
        },
        {
          what: "claim",
          run: async () => {
            throw new Error("Command timed out");
          },
        },
      ],
      everyMinute: [],
      everySecond: [],
      log: { info: record("info"), warn: record("warn"), error: record("error") },
    });
    timers.start();
    try {
      await vi.advanceTimersByTimeAsync(1_000);
      flushFails = false;
      await vi.advanceTimersByTimeAsync(1_000);
    } finally {
      timers.stop();
    }
    expect(lines).toEqual([
      {
        level: "warn",
        message:
          "Usage flush failed (Command timed out): its counts are kept and sent again at the next flush.",
        cause: undefined,
      },
      {
        level: "warn",
        message:
          "Usage claim failed (Command timed out): the fleet's counts stay in Redis and are claimed at the next flush.",
        cause: undefined,
      },
    ]);
    for (const { message } of lines) expect(message).not.toContain("\n");
  });
});
