import { and, asc, desc, eq, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { AuditAction } from "../../lib/vocabulary";
import type { Tx } from "../client";
import { auditLog, customers, operationClasses, plans, serviceTokens } from "../schema";
import { type KeysetOrder, type KeysetPage, type KeyValue, keysetPage } from "./keyset";

/** AuditEntry is one recorded operator change. */
export type AuditEntry = typeof auditLog.$inferSelect;

/**
 * AuditListEntry is an entry as the log lists it: with its entity's current name, if it has one,
 * and once it is gone, its last known name (see lastKnownName).
 */
export type AuditListEntry = AuditEntry & {
  entityName: string | null;
  lastKnownName: string | null;
};

/** appendAudit records an operator change; call it in the change's own transaction. */
export function appendAudit(tx: Tx, entry: Omit<AuditEntry, "id">): void {
  tx.insert(auditLog).values(entry).run();
}

/**
 * lastAuditId is the id of the newest audit entry (0 for none). Every operator change writes one
 * entry in its own transaction, so read in the same transaction as other rows it says how many
 * changes those rows include: the policy snapshot's revision.
 */
export function lastAuditId(tx: Tx): number {
  return (
    tx
      .select({ id: sql<number | null>`max(${auditLog.id})` })
      .from(auditLog)
      .get()?.id ?? 0
  );
}

/** listAudit returns the newest entries first, `limit` at most, older than `beforeId` if given. */
export function listAudit(tx: Tx, options: { limit: number; beforeId?: number }): AuditEntry[] {
  const query = tx.select().from(auditLog);
  const filtered = options.beforeId ? query.where(lt(auditLog.id, options.beforeId)) : query;
  return filtered.orderBy(desc(auditLog.id)).limit(options.limit).all();
}

/**
 * listEntityAudit returns one entity's audit entries (by type and id) of the given actions, oldest
 * first: how a plan's limits, or a customer's plan and overrides, changed over time.
 */
export function listEntityAudit(
  tx: Tx,
  entity: { type: string; id: number },
  actions: readonly AuditAction[],
): AuditEntry[] {
  return tx
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entityType, entity.type),
        eq(auditLog.entityId, String(entity.id)),
        inArray(auditLog.action, [...actions]),
      ),
    )
    .orderBy(asc(auditLog.at), asc(auditLog.id))
    .all();
}

/** AuditFilter narrows the audit log: an action, an actor, a customer, a time range (ms). */
export interface AuditFilter {
  action?: AuditAction;
  actor?: string;
  customerId?: number;
  /** from is the range's start, inclusive (ms since the epoch). */
  from?: number;
  /** to is the range's end, exclusive (ms since the epoch). */
  to?: number;
}

/** auditFilterSql is the WHERE condition of a filter, or undefined for none. */
export function auditFilterSql(filter: AuditFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.action !== undefined) conditions.push(eq(auditLog.action, filter.action));
  if (filter.actor !== undefined) conditions.push(eq(auditLog.actor, filter.actor));
  if (filter.customerId !== undefined) {
    conditions.push(eq(auditLog.entityType, "customer"));
    conditions.push(eq(auditLog.entityId, String(filter.customerId)));
  }
  if (filter.from !== undefined) conditions.push(gte(auditLog.at, filter.from));
  if (filter.to !== undefined) conditions.push(lt(auditLog.at, filter.to));
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** AUDIT_ORDER is the log's order: newest first, by time then id. */
const AUDIT_ORDER: KeysetOrder = {
  columns: [sql`${auditLog.at}`, sql`${auditLog.id}`],
  descending: true,
};

/** auditKeyOf is an entry's key in the log's order: [at, id]. */
export function auditKeyOf(entry: AuditEntry): KeyValue[] {
  return [entry.at, entry.id];
}

/** recordedName is the name an entry's snapshot (`before` or `after`, JSON) holds, or null. */
function recordedName(snapshot: SQL): SQL<string | null> {
  return sql<
    string | null
  >`case when json_type(${snapshot}, '$.name') = 'text' then json_extract(${snapshot}, '$.name') end`;
}

/** other is a second reading of audit_log, for the entries of the same entity as a listed one. */
const OTHER = sql.raw("other");

/**
 * lastKnownName is, for a listed entry whose entity is gone (`currentName` null), the name
 * recorded by the newest of the entity's entries that records one: its deletion's, usually. So every
 * entry of a deleted customer, plan or token is named alike, even one whose own snapshot has no
 * name (a key rotation). Regression: such an entry read "customer #64 (deleted)" among entries
 * that named it. Null while the entity exists, or when no entry named it.
 */
function lastKnownName(currentName: SQL): SQL<string | null> {
  const after = recordedName(sql`${OTHER}.after`);
  const before = recordedName(sql`${OTHER}.before`);
  return sql<
    string | null
  >`case when ${currentName} is null and ${auditLog.entityId} is not null then (
    select coalesce(${after}, ${before}) from audit_log as ${OTHER}
    where ${OTHER}.entity_type = ${auditLog.entityType} and ${OTHER}.entity_id = ${auditLog.entityId}
      and coalesce(${after}, ${before}) is not null
    order by ${OTHER}.at desc, ${OTHER}.id desc limit 1
  ) end`;
}

/**
 * pageAudit reads one page of the log, newest first, after or before a cursor key ([at, id]),
 * with the current name of each entry's customer, plan or service token (null once it is
 * deleted) and, once it is, the last name the log knows it by.
 */
export function pageAudit(
  tx: Tx,
  filter: AuditFilter,
  cursor: { after?: readonly KeyValue[]; before?: readonly KeyValue[] },
  limit: number,
): KeysetPage<AuditListEntry> {
  const currentName = sql<
    string | null
  >`coalesce(${customers.name}, ${plans.name}, ${serviceTokens.name}, ${operationClasses.name})`;
  return keysetPage(
    (where, orderBy, n) =>
      tx
        .select({
          id: auditLog.id,
          at: auditLog.at,
          actor: auditLog.actor,
          action: auditLog.action,
          entityType: auditLog.entityType,
          entityId: auditLog.entityId,
          before: auditLog.before,
          after: auditLog.after,
          entityName: currentName,
          lastKnownName: lastKnownName(currentName),
        })
        .from(auditLog)
        .leftJoin(
          customers,
          and(eq(auditLog.entityType, "customer"), sql`${customers.id} = ${auditLog.entityId}`),
        )
        .leftJoin(
          plans,
          and(eq(auditLog.entityType, "plan"), sql`${plans.id} = ${auditLog.entityId}`),
        )
        .leftJoin(
          serviceTokens,
          and(
            eq(auditLog.entityType, "service-token"),
            sql`${serviceTokens.id} = ${auditLog.entityId}`,
          ),
        )
        .leftJoin(
          operationClasses,
          and(eq(auditLog.entityType, "class"), eq(operationClasses.name, auditLog.entityId)),
        )
        .where(where)
        .orderBy(...orderBy)
        .limit(n)
        .all(),
    auditKeyOf,
    AUDIT_ORDER,
    auditFilterSql(filter),
    cursor,
    limit,
  );
}

/** countAudit counts the entries a filter matches. */
export function countAudit(tx: Tx, filter: AuditFilter): number {
  return (
    tx.select({ n: sql<number>`count(*)` }).from(auditLog).where(auditFilterSql(filter)).get()?.n ??
    0
  );
}
