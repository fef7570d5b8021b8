import type { Tx } from "@/db/client";
import { type AuditInput, audit } from "./audit";
import type { AdminContext } from "./context";
import type { Outcome } from "./plans";

/** AuditEntry is what a change says of itself: an audit entry, less the actor and the time. */
export type AuditEntry = Omit<AuditInput, "actor" | "at">;

/**
 * Changed is what a change's body returns: a refusal as it is, or its value and the audit entry
 * that records it.
 */
export type Changed<T> =
  | Extract<Outcome<T>, { ok: false }>
  | { ok: true; value: T; audit: AuditEntry };

/**
 * change runs one operator change: `body` in one transaction, given the time of the change
 * (`now`, ms, read once from the clock), the audit entry it returns written in that same
 * transaction, then, once committed, the policy rebuilt and announced. A refusal (`ok: false`)
 * writes nothing, audits nothing and rebuilds nothing.
 */
export function change<T>(
  rt: AdminContext,
  actor: string,
  body: (tx: Tx, now: number) => Changed<T>,
): Outcome<T> {
  const now = rt.clock.now();
  const result = rt.db.transaction((tx): Outcome<T> => {
    const done = body(tx, now);
    if (!done.ok) return done;
    audit(tx, { ...done.audit, actor, at: now });
    return { ok: true, value: done.value };
  });
  if (result.ok) rt.policy.applyEdit();
  return result;
}
