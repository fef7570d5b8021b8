import { describe, expect, it, vi } from "vitest";
import type { Logger } from "@/lib/log";
import type { PolicyState } from "@/lib/policy/policy-store";
import type { RedisSnapshots, SnapshotWrite } from "@/lib/policy/redis-snapshot";
import { SnapshotWriter } from "@/lib/policy/snapshot-writer";
import { FakeClock } from "../../support/fake-clock";

const EMPTY = { plans: [], customers: [], overrides: [], serviceTokens: [] };

/** fake records what the writer did, in order: writes (revision, forced) and notices. */
function fake(options: { failures?: number } = {}) {
  const events: string[] = [];
  let failures = options.failures ?? 0;
  let revision = 1;
  let version = 0;
  const lines: string[] = [];
  const log: Logger = {
    info: (m) => lines.push(m),
    warn: (m) => lines.push(m),
    error: (m) => lines.push(m),
  };
  const snapshots = {
    async write(_rows: string, rev: number, _at: number, force = false): Promise<SnapshotWrite> {
      if (failures > 0) {
        failures -= 1;
        events.push(`fail ${rev}`);
        throw new Error("Connection is closed.");
      }
      events.push(`write ${rev}${force ? " forced" : ""}`);
      version += 1;
      return { written: true, stamp: { generation: "g", version } };
    },
  } as unknown as RedisSnapshots;
  const writer = new SnapshotWriter({
    snapshots,
    state: (): PolicyState => ({ rows: EMPTY, revision }),
    refresh: () => events.push("refresh"),
    publish: () => events.push("publish"),
    clock: new FakeClock(0),
    log,
    retryMs: 5,
  });
  return {
    writer,
    events,
    lines,
    edit() {
      revision += 1;
      writer.request();
    },
  };
}

describe("SnapshotWriter", () => {
  it("forces its first write, rereads and writes again, then writes each edit before its notice", async () => {
    const f = fake();
    f.writer.request();
    await f.writer.idle();
    f.edit();
    await f.writer.idle();
    expect(f.events).toEqual([
      "write 1 forced",
      "refresh",
      "publish",
      "write 1",
      "publish",
      "write 2",
      "publish",
    ]);
    f.writer.close();
  });

  it("coalesces the edits made during a write into one more write of the newest state", async () => {
    const f = fake();
    f.writer.request();
    await f.writer.idle();
    f.events.length = 0;
    f.edit();
    f.edit();
    f.edit();
    await f.writer.idle();
    // The first edit's write starts at once; the two made while it runs share the next one.
    expect(f.events).toEqual(["write 2", "publish", "write 4", "publish"]);
    f.writer.close();
  });

  it("still announces an edit it could not write, and writes it once Redis answers", async () => {
    const f = fake({ failures: 2 });
    f.writer.request();
    await vi.waitFor(() => expect(f.events).toContain("write 1"));
    await f.writer.idle();
    expect(f.events).toEqual([
      "fail 1",
      "publish",
      "fail 1",
      "publish",
      "write 1 forced",
      "refresh",
      "publish",
      "write 1",
      "publish",
    ]);
    // One warning for the incident, one line when it ends.
    expect(f.lines.filter((l) => l.startsWith("Could not write the policy snapshot"))).toHaveLength(
      1,
    );
    expect(f.lines).toContain("The policy snapshot is in Redis again: edges catch up.");
    f.writer.close();
  });
});
