/**
 * Rounds: the statistics of the HTTP benchmarks (`npm run bench:decide`). Every target runs once
 * per round, the rounds alternating their order (A B C, C B A, ...), so a drift in the machine's
 * speed weighs on all alike; a figure is the median of its rounds with their range, and a ratio
 * is taken within each round (ours and the floor measured back to back) before its median. One
 * run moves by more than most targets' margins on a shared machine; five medians do not.
 */

/** MIN_ROUNDS is the fewest rounds a verdict is given on: 5. */
export const MIN_ROUNDS = 5;

/** Spread is the median of some values with their smallest and largest. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** spreadOf is the median (the mean of the middle two, for an even count) and range of `values`; NaN for none. */
export function spreadOf(values: readonly number[]): Spread {
  if (values.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN };
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median =
    sorted.length % 2 === 1
      ? (sorted[mid] as number)
      : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { median, min: sorted[0] as number, max: sorted[sorted.length - 1] as number };
}

/**
 * ratioSpread is the spread of `over[i] / under[i]`, round by round: the ratio of two targets
 * measured in the same round, whose pairs the alternation keeps side by side.
 */
export function ratioSpread(over: readonly number[], under: readonly number[]): Spread {
  if (over.length !== under.length) {
    throw new Error(
      `ratioSpread needs one value per round on each side (${over.length} vs ${under.length})`,
    );
  }
  return spreadOf(over.map((value, i) => value / (under[i] as number)));
}

/** roundOrder is the order targets run in, in round `round` (from 0): as given, then reversed, in turn. */
export function roundOrder<T>(targets: readonly T[], round: number): T[] {
  return round % 2 === 0 ? [...targets] : [...targets].reverse();
}

/** roundsArg reads `--rounds N` from the arguments: at least MIN_ROUNDS (a smaller N is refused). */
export function roundsArg(argv: readonly string[]): number {
  const at = argv.indexOf("--rounds");
  if (at < 0) return MIN_ROUNDS;
  const rounds = Number(argv[at + 1]);
  if (!Number.isInteger(rounds) || rounds < MIN_ROUNDS) {
    throw new Error(`--rounds takes a whole number of at least ${MIN_ROUNDS}, not ${argv[at + 1]}`);
  }
  return rounds;
}
