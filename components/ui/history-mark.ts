/**
 * HISTORY_MARK is the key under which the guard marks its own history entries' state; the rest
 * of the state (the router's) is kept as it is.
 */
export const HISTORY_MARK = "ratekeeperLeaveGuard";

/** GuardMark is what an entry's state holds under HISTORY_MARK: which guard, and which entry. */
export interface GuardMark {
  /** id names one arming of the guard, so entries left by an earlier one are not taken for ours. */
  id: string;
  /** role: "base" is the page's own entry, "guard" the copy pushed on top of it while dirty. */
  role: "base" | "guard";
}

/** markOf reads the guard's mark from a history entry's state, or undefined when it has none. */
export function markOf(state: unknown): GuardMark | undefined {
  if (typeof state !== "object" || state === null) return undefined;
  const mark = (state as Record<string, unknown>)[HISTORY_MARK];
  if (typeof mark !== "object" || mark === null) return undefined;
  const { id, role } = mark as Record<string, unknown>;
  return typeof id === "string" && (role === "base" || role === "guard") ? { id, role } : undefined;
}

/**
 * withMark is a copy of an entry's state with `mark` under HISTORY_MARK (or without any mark
 * when it is undefined), the rest kept; a state that is not an object becomes an empty one.
 */
export function withMark(state: unknown, mark: GuardMark | undefined): Record<string, unknown> {
  const copy: Record<string, unknown> =
    typeof state === "object" && state !== null ? { ...(state as Record<string, unknown>) } : {};
  if (mark) copy[HISTORY_MARK] = mark;
  else delete copy[HISTORY_MARK];
  return copy;
}
