import { desc, eq, gte, sql } from "drizzle-orm";
import type { QuotaGrantView } from "../../lib/schemas/quota-grant-answer.schema";
import type { QuotaPeriod } from "../../lib/vocabulary";
import type { Tx } from "../client";
import { quotaGrants } from "../schema";

/** NewQuotaGrant is what a grant is stored from: all but its id. */
export type NewQuotaGrant = Omit<QuotaGrantView, "id">;

/** insertQuotaGrant stores a grant and returns its id. */
export function insertQuotaGrant(tx: Tx, values: NewQuotaGrant): number {
  return tx.insert(quotaGrants).values(values).returning({ id: quotaGrants.id }).get().id;
}

/** getQuotaGrant returns one grant, or undefined. */
export function getQuotaGrant(tx: Tx, id: number): QuotaGrantView | undefined {
  return tx.select().from(quotaGrants).where(eq(quotaGrants.id, id)).get();
}

/** grantsFor returns one customer's grants, newest first (by id: the order they were made in). */
export function grantsFor(tx: Tx, customerId: number): QuotaGrantView[] {
  return tx
    .select()
    .from(quotaGrants)
    .where(eq(quotaGrants.customerId, customerId))
    .orderBy(desc(quotaGrants.id))
    .all();
}

/** GrantTotalRow is the sum of a customer's grants for one quota and one period. */
export interface GrantTotalRow {
  customerId: number;
  operation: string;
  period: QuotaPeriod;
  timeZone: string;
  periodStartMs: number;
  /** extra is the sum of the grants' extra: what the period's count grows by. */
  extra: number;
}

/**
 * grantTotalsSince sums every customer's grants per (operation, period, time zone, period
 * start), for the periods starting at `sinceMs` (ms since the epoch) or later: what the policy
 * snapshot carries.
 */
export function grantTotalsSince(tx: Tx, sinceMs: number): GrantTotalRow[] {
  return tx
    .select({
      customerId: quotaGrants.customerId,
      operation: quotaGrants.operation,
      period: quotaGrants.period,
      timeZone: quotaGrants.timeZone,
      periodStartMs: quotaGrants.periodStartMs,
      extra: sql<number>`sum(${quotaGrants.extra})`,
    })
    .from(quotaGrants)
    .where(gte(quotaGrants.periodStartMs, sinceMs))
    .groupBy(
      quotaGrants.customerId,
      quotaGrants.operation,
      quotaGrants.period,
      quotaGrants.timeZone,
      quotaGrants.periodStartMs,
    )
    .all();
}
