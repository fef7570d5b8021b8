import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { updatePlan } from "@/lib/admin/plans";
import type { Logger } from "@/lib/log";
import type { PolicyState } from "@/lib/policy/policy-store";
import { RedisSnapshots, type SnapshotWrite } from "@/lib/policy/redis-snapshot";
import { SnapshotWriter } from "@/lib/policy/snapshot-writer";
import type { Runtime } from "@/lib/runtime";
import { POLICY_ROWS_FORMAT } from "@/lib/schemas/policy-rows.schema";
import { FakeClock, flush } from "../../support/fake-clock";
import { type RedisServer, startRedisServer } from "../../support/redis-server";
import {
  createTestRuntime,
  openTestRuntime,
  START_MS,
  type TestRuntime,
} from "../../support/runtime";

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
    lost: () => events.push("lost"),
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

describe("the control plane keeps its snapshot in Redis (a real redis-server)", () => {
  const HOUR = 3_600_000;
  let server: RedisServer;
  let prefixes = 0;
  const open: { close(): void }[] = [];

  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterEach(() => {
    for (const item of open.splice(0)) item.close();
  });
  afterAll(async () => {
    await server.close();
  });

  /** plane is a control plane on a new database, its snapshot under `prefix`, written. */
  async function plane(prefix: string): Promise<TestRuntime> {
    const t = createTestRuntime({ redis: { url: server.url, prefix, timeoutMs: 1_000 } });
    open.push({ close: () => t.cleanup() });
    await t.runtime.ready();
    await writerOf(t.runtime).idle();
    return t;
  }

  function writerOf(rt: Runtime): SnapshotWriter {
    if (!rt.snapshotWriter) throw new Error("a runtime with Redis has a snapshot writer");
    return rt.snapshotWriter;
  }

  /** tick moves the shared clock one check period on and waits for what the checks started. */
  async function tick(clock: FakeClock, ...runtimes: Runtime[]): Promise<void> {
    clock.advance(1_000);
    await flush();
    for (const rt of runtimes) await writerOf(rt).idle();
  }

  /** bumpRevision makes an audited edit: the database's revision grows by one. */
  function bumpRevision(t: TestRuntime, count: number): void {
    const outcome = updatePlan(t.runtime, "admin", t.planId("free"), {
      limits: [{ operation: "read", count, periodMs: HOUR }],
    });
    expect(outcome.ok).toBe(true);
  }

  it("writes the snapshot again within one check after Redis lost it, with no edit", async () => {
    const prefix = `keep${++prefixes}`;
    const t = await plane(prefix);
    const snapshots = new RedisSnapshots(server.client(), prefix);
    await server.client().flushall();
    expect(await snapshots.readHead()).toBeNull();
    await tick(t.clock, t.runtime);
    const head = await snapshots.readHead();
    expect(head).toMatchObject({
      version: 1,
      revision: t.runtime.policy.state?.revision,
      format: POLICY_ROWS_FORMAT,
    });
    // Present and current: later checks write nothing more, and the log said it once.
    await tick(t.clock, t.runtime);
    await tick(t.clock, t.runtime);
    expect(await snapshots.readHead()).toEqual(head);
    expect(t.lines.filter((l) => l.startsWith("Redis holds no policy snapshot"))).toHaveLength(1);
  });

  it("asks for the quota counts to be restored from the rollups when it finds Redis lost its data", async () => {
    const prefix = `keep${++prefixes}`;
    const t = await plane(prefix);
    const restorer = t.runtime.quotaRestorer;
    if (!restorer) throw new Error("a runtime with Redis restores quota counts");
    const restore = vi.spyOn(restorer, "restore");
    await tick(t.clock, t.runtime);
    expect(restore).not.toHaveBeenCalled();
    await server.client().flushall();
    await tick(t.clock, t.runtime);
    expect(restore).toHaveBeenCalledTimes(1);
    await restore.mock.results[0]?.value;
  });

  it("rewrites a snapshot of an earlier revision or an earlier format, never a later one", async () => {
    const prefix = `keep${++prefixes}`;
    const t = await plane(prefix);
    bumpRevision(t, 11);
    await writerOf(t.runtime).idle();
    const own = t.runtime.policy.state?.revision ?? -1;
    expect(own).toBeGreaterThan(0);
    const snapshots = new RedisSnapshots(server.client(), prefix);

    await snapshots.write("rows of an earlier revision", own - 1, START_MS, true);
    await tick(t.clock, t.runtime);
    expect(await snapshots.readHead()).toMatchObject({ revision: own, format: POLICY_ROWS_FORMAT });

    await snapshots.write("rows in an earlier format", own, START_MS, true, 0);
    await tick(t.clock, t.runtime);
    expect(await snapshots.readHead()).toMatchObject({ revision: own, format: POLICY_ROWS_FORMAT });
    expect((await snapshots.read())?.rows).not.toBe("rows in an earlier format");

    // A later revision, as another control plane on another database would write: kept.
    const later = await snapshots.write("rows of a later revision", own + 100, START_MS, true);
    for (let i = 0; i < 3; i++) await tick(t.clock, t.runtime);
    expect(await snapshots.read()).toMatchObject({
      version: later.stamp.version,
      revision: own + 100,
      rows: "rows of a later revision",
    });
    const warnings = t.lines.filter((l) => l.includes("later than this database's"));
    expect(warnings).toEqual([
      `Redis holds a policy snapshot of revision ${own + 100}, later than this database's ${own}: another control plane on another database writes it. It is left in place; run every control plane on one database.`,
    ]);
  });

  it("two control planes on one database do not take turns rewriting it", async () => {
    const prefix = `keep${++prefixes}`;
    const t = await plane(prefix);
    const other = openTestRuntime(t.databasePath, t.clock, {
      redis: { url: server.url, prefix, timeoutMs: 1_000 },
    });
    open.push(other);
    await other.ready();
    await writerOf(other).idle();
    const snapshots = new RedisSnapshots(server.client(), prefix);
    await server.client().flushall();
    await tick(t.clock, t.runtime, other);
    const restored = await snapshots.readHead();
    expect(restored).toMatchObject({
      revision: t.runtime.policy.state?.revision,
      format: POLICY_ROWS_FORMAT,
    });
    // Both checked; at most both wrote once. From then on neither writes.
    expect(restored?.version).toBeLessThanOrEqual(2);
    for (let i = 0; i < 5; i++) await tick(t.clock, t.runtime, other);
    expect(await snapshots.readHead()).toEqual(restored);
  });

  it("two control planes on different databases: the later revision wins, and stays", async () => {
    const prefix = `keep${++prefixes}`;
    const ahead = await plane(prefix);
    bumpRevision(ahead, 12);
    bumpRevision(ahead, 13);
    await writerOf(ahead.runtime).idle();
    // The second starts last: its first write is forced, so Redis holds its older rows now.
    const behind = await plane(prefix);
    const snapshots = new RedisSnapshots(server.client(), prefix);
    const aheadRevision = ahead.runtime.policy.state?.revision ?? -1;
    expect((await snapshots.readHead())?.revision).toBeLessThan(aheadRevision);
    await tick(ahead.clock, ahead.runtime, behind.runtime);
    await tick(behind.clock, ahead.runtime, behind.runtime);
    const settled = await snapshots.readHead();
    expect(settled?.revision).toBe(aheadRevision);
    for (let i = 0; i < 5; i++) {
      await tick(ahead.clock, ahead.runtime, behind.runtime);
      await tick(behind.clock, ahead.runtime, behind.runtime);
    }
    expect(await snapshots.readHead()).toEqual(settled);
    expect(behind.lines.filter((l) => l.includes("later than this database's"))).toHaveLength(1);
  });
});
