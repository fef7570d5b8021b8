/**
 * UNANSWERED_OUTCOMES are what can become, in Redis, of a decision answered without its reply
 * (its caller was told Redis did not answer): `expired`, it reached Redis past its deadline and
 * took nothing; `charged`, it ran in time and took its tokens, its reply late; `not_charged`, it
 * ran in time and took nothing (refused, a peek); `unknown`, no reply will come (the connection
 * closed after the command went out): it may have run.
 */
export const UNANSWERED_OUTCOMES = ["expired", "charged", "not_charged", "unknown"] as const;

/** UnansweredOutcome is one of UNANSWERED_OUTCOMES. */
export type UnansweredOutcome = (typeof UNANSWERED_OUTCOMES)[number];

/** OnUnanswered hears how many decisions answered without their reply ended up as `outcome`. */
export type OnUnanswered = (outcome: UnansweredOutcome, decisions: number) => void;

/**
 * RedisDeadlineError is how a decision fails when Redis did not answer it in time, or answered
 * that it came past its deadline: either way the script took nothing by then, or (counted as
 * `charged` or `unknown`) its reply was lost.
 */
export class RedisDeadlineError extends Error {
  override name = "RedisDeadlineError";
}
