import type { Clock } from "@/lib/limiter";
import { buildSnapshot, changedCustomers, type PolicyRows, type PolicySnapshot } from "./snapshot";

/**
 * PolicyState is what a snapshot is built from: the stored rows and the revision of the
 * database they were read at (the newest audit entry's id: it grows with every operator change).
 */
export interface PolicyState {
  rows: PolicyRows;
  revision: number;
}

/** NO_ROWS is a policy with nothing in it: an edge's until it loads one. */
const NO_ROWS: PolicyRows = { plans: [], customers: [], overrides: [], serviceTokens: [] };

/**
 * PolicyStore holds the policy snapshot that protected requests and the decision API read (the
 * customers, their limits and the live service tokens), so requests never query the database.
 * On the control plane it has a `source` (SQLite): it builds the snapshot at once, `reload`
 * rebuilds it after this instance changed the policy (and announces it), `refresh` after another
 * did. An edge has no source: its snapshot is empty, and `loaded` false, until `install` gives
 * it the rows the control plane wrote to Redis.
 */
export class PolicyStore {
  private current: PolicySnapshot;
  private held: PolicyState | undefined;
  /** announce, when set, tells other instances (and edges) that this one changed the policy. */
  announce: (() => void) | undefined;
  /**
   * changed, when set, hears the ids of the customers whose policy a rebuild changed (status,
   * plan, limits, overrides or API key), before the rebuild returns.
   */
  changed: ((customerIds: readonly number[]) => void) | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly source?: () => PolicyState,
  ) {
    this.held = source?.();
    this.current = buildSnapshot(this.held?.rows ?? NO_ROWS, clock.now());
  }

  /** snapshot is the policy in force (empty on an edge that has not loaded one yet). */
  get snapshot(): PolicySnapshot {
    return this.current;
  }

  /** loaded says whether the snapshot holds a policy: always on the control plane. */
  get loaded(): boolean {
    return this.held !== undefined;
  }

  /** state is what the snapshot in force was built from, once loaded. */
  get state(): PolicyState | undefined {
    return this.held;
  }

  /** reload rebuilds the snapshot after this instance changed the policy, and announces it. */
  reload(): void {
    this.install(this.read());
    this.announce?.();
  }

  /** refresh rebuilds the snapshot after another instance changed the policy. */
  refresh(): void {
    this.install(this.read());
  }

  /** install builds the snapshot from `state` (an edge's, read from Redis) and puts it in force. */
  install(state: PolicyState): void {
    const before = this.current;
    const next = buildSnapshot(state.rows, this.clock.now());
    this.held = state;
    this.current = next;
    if (this.changed) {
      const ids = changedCustomers(before, next);
      if (ids.length > 0) this.changed(ids);
    }
  }

  private read(): PolicyState {
    if (!this.source) {
      throw new Error("This policy has no database to read: an edge installs what Redis holds.");
    }
    return this.source();
  }
}
