import { insertItems, listItems } from "@/db/queries/items";
import { findSession, insertSession } from "@/db/queries/operator";
import { sessions } from "@/db/schema";
import { UNKNOWN_ADDRESS } from "@/lib/http/client-address";
import { identify } from "@/lib/policy/decide";
import { DEFAULT_CLASSES } from "@/lib/vocabulary";
import { signIn } from "../api/admin/admin-support";
import { createTestRuntime, type TestCustomer, type TestRuntime } from "../support/runtime";

/** Role is a customer the world keeps: each request may carry any of their keys. */
type Role = "caller" | "other" | "throttled" | "suspended";

const ROOMY = 100_000;
const LIMITS: Record<Role, [count: number, periodMs: number]> = {
  caller: [ROOMY, 1_000],
  other: [ROOMY, 1_000],
  throttled: [1, 30 * 86_400_000],
  suspended: [ROOMY, 1_000],
};

/**
 * FuzzWorld is the state the fuzz suite's requests land in: a test runtime with an operator
 * session and customers with keys and items. Requests may delete, suspend, re-key or throttle
 * any of them: `prepare` puts back what the next request needs (only between requests, never
 * between a snapshot and its comparison).
 */
export class FuzzWorld {
  private readonly customers = new Map<Role, TestCustomer>();
  private serial = 0;
  private logged: string[] = [];
  /** sessionRow is the row sign-in stored for the world's session. */
  private sessionRow: typeof sessions.$inferSelect | undefined;

  private constructor(
    readonly test: TestRuntime,
    private sessionToken: string,
  ) {}

  /** open builds a world on a fresh test runtime, signed in through the session route. */
  static async open(): Promise<FuzzWorld> {
    const test = createTestRuntime();
    // No sweep on the wall clock: it would drop full buckets between two snapshots.
    test.runtime.limiter.close();
    const world = new FuzzWorld(test, "");
    // Keep the causes handlers log with their 500s: the findings name them.
    test.runtime.log.error = (message, cause) => {
      const text = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause ?? "");
      world.logged.push(`${message}: ${text}`);
    };
    await world.prepare(0);
    return world;
  }

  /** prepare moves the clock on by `advanceMs`, then restores the session and the customers. */
  async prepare(advanceMs: number): Promise<void> {
    const { runtime, clock } = this.test;
    clock.advance(advanceMs);
    if (!runtime.auth.actorOf(this.sessionToken)) await this.renewSession();
    for (const role of ["caller", "other", "throttled", "suspended"] as const) {
      if (!this.fits(role)) this.customers.set(role, this.recreate(role));
    }
    for (const role of ["caller", "other"] as const) {
      const { id } = this.customer(role);
      if (listItems(runtime.db, id, { limit: 1 }).length === 0)
        insertItems(runtime.db, id, [{ name: `${role} item`, quantity: 1 }], clock.now());
    }
  }

  /**
   * renewSession puts back the session a fuzzed sign-out deleted (the same row, so no password
   * hash is paid for again), or signs in anew once it has expired.
   */
  private async renewSession(): Promise<void> {
    const { runtime, clock } = this.test;
    const row = this.sessionRow;
    if (row && !findSession(runtime.db, row.tokenHash)) {
      insertSession(runtime.db, row);
      if (runtime.auth.actorOf(this.sessionToken)) return;
    }
    // Wrong passwords sent by the fuzz may have spent this address's sign-in attempts.
    while (!runtime.loginLimiter.peek(UNKNOWN_ADDRESS)) clock.advance(10_000);
    const held = new Set(
      runtime.db
        .select()
        .from(sessions)
        .all()
        .map((s) => s.tokenHash),
    );
    this.sessionToken = (await signIn()).slice("rk_session=".length);
    this.sessionRow = runtime.db
      .select()
      .from(sessions)
      .all()
      .find((s) => !held.has(s.tokenHash));
  }

  private customer(role: Role): TestCustomer {
    const customer = this.customers.get(role);
    if (!customer) throw new Error(`No ${role} customer`);
    return customer;
  }

  /** fits says whether a role's customer still is what the role needs. */
  private fits(role: Role): boolean {
    const customer = this.customers.get(role);
    if (!customer) return false;
    const identity = identify(this.test.runtime.policy.snapshot, customer.key);
    if (role === "suspended") return !identity.ok && identity.reason === "suspended";
    if (!identity.ok) return false;
    if (role !== "caller") return true;
    const now = this.test.clock.now();
    // The caller must be able to make requests: a fuzzed override or plan may have stopped it.
    return DEFAULT_CLASSES.every((operation) =>
      this.test.runtime.limiter.peek({ customer: identity.customer, operation, now }),
    );
  }

  private recreate(role: Role): TestCustomer {
    const [count, periodMs] = LIMITS[role];
    const slug = `fuzz-${role}-${++this.serial}`;
    this.test.addPlan(
      slug,
      DEFAULT_CLASSES.map((operation) => ({ operation, count, periodMs })),
    );
    const customer = this.test.addCustomer(slug, `Fuzz ${role}`);
    if (role === "suspended") this.test.suspend(customer.id);
    return customer;
  }

  /** takeLogged returns the errors the runtime logged since the last call. */
  takeLogged(): string[] {
    const logged = this.logged;
    this.logged = [];
    return logged;
  }

  /** values are what the placeholders of generated requests stand for, now. */
  values(): Record<string, string> {
    const { runtime } = this.test;
    const caller = this.customer("caller");
    const other = this.customer("other");
    const firstItem = (id: number) => String(listItems(runtime.db, id, { limit: 1 })[0]?.id ?? 0);
    return {
      session: this.sessionToken,
      stale: "c3RhbGUtc2Vzc2lvbi10b2tlbi10aGF0LWVuZGVk",
      caller: caller.key,
      throttled: this.customer("throttled").key,
      suspended: this.customer("suspended").key,
      demo: this.test.demoKey,
      callerId: String(caller.id),
      otherId: String(other.id),
      demoId: String(this.test.demoId),
      callerPlan: String(runtime.policy.snapshot.byId.get(caller.id)?.planId ?? 0),
      callerItem: firstItem(caller.id),
      otherItem: firstItem(other.id),
    };
  }

  /** resolve fills in the placeholders (`{session}`, `{caller}`, ...) of a generated string. */
  resolve(text: string, values = this.values()): string {
    return text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
  }

  /** close deletes the runtime and its files. */
  close(): void {
    this.test.cleanup();
  }
}
