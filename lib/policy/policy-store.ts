import type { Db } from "@/db/client";
import { listCustomerRows, listOverrides } from "@/db/queries/customers";
import { listPlans } from "@/db/queries/plans";
import { listActiveServiceTokens } from "@/db/queries/service-tokens";
import type { Clock } from "@/lib/limiter";
import { buildSnapshot, changedCustomers, type PolicySnapshot } from "./snapshot";

/**
 * PolicyStore holds the policy snapshot that protected requests and the decision API read (the
 * customers, their limits and the live service tokens). `reload` rebuilds it from SQLite;
 * operators' writes call it, so requests never query the database.
 */
export class PolicyStore {
  private current: PolicySnapshot;
  /** announce, when set, tells other instances that this one changed the policy. */
  announce: (() => void) | undefined;
  /**
   * changed, when set, hears the ids of the customers whose policy a rebuild changed (status,
   * plan, limits, overrides or API key), before the rebuild returns.
   */
  changed: ((customerIds: readonly number[]) => void) | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.current = this.build();
  }

  /** snapshot is the policy in force. */
  get snapshot(): PolicySnapshot {
    return this.current;
  }

  /** reload rebuilds the snapshot after this instance changed the policy, and announces it. */
  reload(): void {
    this.replace(this.build());
    this.announce?.();
  }

  /** refresh rebuilds the snapshot after another instance changed the policy. */
  refresh(): void {
    this.replace(this.build());
  }

  private replace(next: PolicySnapshot): void {
    const before = this.current;
    this.current = next;
    if (this.changed) {
      const ids = changedCustomers(before, next);
      if (ids.length > 0) this.changed(ids);
    }
  }

  private build(): PolicySnapshot {
    const rows = this.db.transaction((tx) => ({
      plans: listPlans(tx),
      customers: listCustomerRows(tx),
      overrides: listOverrides(tx),
      serviceTokens: listActiveServiceTokens(tx),
    }));
    return buildSnapshot(rows, this.clock.now());
  }
}
