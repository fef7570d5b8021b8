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

/** PolicyStoreOptions: the clock snapshots are built at, and whom a rebuild tells what changed. */
export interface PolicyStoreOptions {
  clock: Clock;
  /**
   * changed hears the ids of the customers whose policy a rebuild changed (status, plan, limits,
   * overrides or API key), before the rebuild returns: what the decisions remember of them goes.
   */
  changed: (customerIds: readonly number[]) => void;
}

/**
 * PolicyStore holds the policy snapshot that protected requests and the decision API read (the
 * customers, their limits and the live service tokens), so requests never query the database.
 * Its snapshot is empty, and `loaded` false, until `install` gives it a state: on an edge, the
 * rows the control plane wrote to Redis. The control plane's is a DatabasePolicy.
 */
export class PolicyStore {
  private current: PolicySnapshot;
  private held: PolicyState | undefined;
  private readonly clock: Clock;
  private readonly changed: (customerIds: readonly number[]) => void;

  constructor(options: PolicyStoreOptions) {
    this.clock = options.clock;
    this.changed = options.changed;
    this.current = buildSnapshot(NO_ROWS, options.clock.now());
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

  /** install builds the snapshot from `state` and puts it in force. */
  install(state: PolicyState): void {
    const before = this.current;
    const next = buildSnapshot(state.rows, this.clock.now());
    this.held = state;
    this.current = next;
    const ids = changedCustomers(before, next);
    if (ids.length > 0) this.changed(ids);
  }
}

/** DatabasePolicyOptions: a policy store's, how to read the database, and whom to tell of an edit. */
export interface DatabasePolicyOptions extends PolicyStoreOptions {
  /** read reads the policy's rows from the database (SQLite) and the revision they were read at. */
  read: () => PolicyState;
  /**
   * announce tells the other instances and the edges that this one committed an edit (with
   * Redis: the snapshot is written for the edges, then the notice published; without, nothing).
   */
  announce: () => void;
}

/**
 * DatabasePolicy is the control plane's policy store: it reads the database at once, and again
 * on the two occasions there are, each with its own verb. `applyEdit`: this instance committed
 * an edit (reread, then announce it). `refresh`: another instance did, or a notice may have been
 * missed (reread only).
 */
export class DatabasePolicy extends PolicyStore {
  private readonly read: () => PolicyState;
  private readonly announce: () => void;

  constructor(options: DatabasePolicyOptions) {
    super(options);
    this.read = options.read;
    this.announce = options.announce;
    this.install(this.read());
  }

  /** applyEdit puts this instance's committed edit in force (reread) and announces it. */
  applyEdit(): void {
    this.install(this.read());
    this.announce();
  }

  /** refresh rereads the database after another instance's edit (nothing is announced). */
  refresh(): void {
    this.install(this.read());
  }
}
