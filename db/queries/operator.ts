import { eq, lt } from "drizzle-orm";
import type { Tx } from "../client";
import { sessions, settings } from "../schema";

/** getSetting returns a setting's value, or undefined. */
export function getSetting(tx: Tx, key: string): string | undefined {
  return tx.select().from(settings).where(eq(settings.key, key)).get()?.value;
}

/** putSetting stores a setting's value. */
export function putSetting(tx: Tx, key: string, value: string): void {
  tx.insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({ target: settings.key, set: { value } })
    .run();
}

/** insertSession stores an operator session by its token's hash. */
export function insertSession(tx: Tx, values: typeof sessions.$inferInsert): void {
  tx.insert(sessions).values(values).run();
}

/** findSession returns a session by its token's hash, or undefined. */
export function findSession(tx: Tx, tokenHash: string): typeof sessions.$inferSelect | undefined {
  return tx.select().from(sessions).where(eq(sessions.tokenHash, tokenHash)).get();
}

/** deleteSession ends one session. */
export function deleteSession(tx: Tx, tokenHash: string): void {
  tx.delete(sessions).where(eq(sessions.tokenHash, tokenHash)).run();
}

/** deleteExpiredSessions removes sessions that expired before `now`. */
export function deleteExpiredSessions(tx: Tx, now: number): void {
  tx.delete(sessions).where(lt(sessions.expiresAt, now)).run();
}
