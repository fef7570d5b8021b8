import { type DraftErrors, errorsByPath } from "@/components/ui/field-errors";
import { bucketLimitOfDraft, type LimitDraft } from "@/components/ui/limit-draft";
import type { Choice } from "@/components/ui/select";
import { countOf } from "@/lib/format";
import { type Pattern, parseTimestamps } from "@/lib/simulator/pattern";
import { type SimulationInput, simulationSchema } from "@/lib/simulator/simulation.schema";

/** PatternKind is a kind of traffic pattern. */
export type PatternKind = Pattern["kind"];

/** PATTERN_KINDS label the pattern kinds for the picker. */
export const PATTERN_KINDS: Choice<PatternKind>[] = [
  { value: "steady", label: "Steady rate" },
  { value: "bursts", label: "Bursts" },
  { value: "ramp", label: "Ramp" },
  { value: "timestamps", label: "Pasted timestamps" },
];

/** PatternDraft is the pattern form as typed: every kind's fields, as text. */
export interface PatternDraft {
  kind: PatternKind;
  rate: string;
  seconds: string;
  size: string;
  every: string;
  from: string;
  to: string;
  timestamps: string;
}

/** defaultPatternDraft is the form's starting point: a steady 20 req/s for 10 s. */
export const defaultPatternDraft: PatternDraft = {
  kind: "steady",
  rate: "20",
  seconds: "10",
  size: "15",
  every: "1",
  from: "5",
  to: "30",
  timestamps: "0, 0, 0, 100, 150, 1000, 1000",
};

function num(text: string): number {
  return text.trim() === "" ? Number.NaN : Number(text);
}

/** SimulationDraftResult is a validated simulation, or errors by path ("pattern.seconds"). */
export type SimulationDraftResult =
  | { ok: true; value: SimulationInput }
  | { ok: false; errors: DraftErrors };

/**
 * simulationOfDraft reads the simulator's form (limit rows, pattern, cost) and validates it
 * with simulationSchema; pasted timestamps that do not parse are reported at
 * "pattern.offsetsMs".
 */
export function simulationOfDraft(
  limits: readonly LimitDraft[],
  draft: PatternDraft,
  cost: string,
): SimulationDraftResult {
  const errors: DraftErrors = {};
  let pattern: unknown;
  switch (draft.kind) {
    case "steady":
      pattern = { kind: "steady", ratePerSecond: num(draft.rate), seconds: num(draft.seconds) };
      break;
    case "bursts":
      pattern = {
        kind: "bursts",
        size: num(draft.size),
        everySeconds: num(draft.every),
        seconds: num(draft.seconds),
      };
      break;
    case "ramp":
      pattern = {
        kind: "ramp",
        fromPerSecond: num(draft.from),
        toPerSecond: num(draft.to),
        seconds: num(draft.seconds),
      };
      break;
    case "timestamps": {
      const parsed = parseTimestamps(draft.timestamps);
      if (parsed.ok) pattern = { kind: "timestamps", offsetsMs: parsed.offsetsMs };
      else {
        errors["pattern.offsetsMs"] = parsed.error;
        pattern = { kind: "timestamps", offsetsMs: [0] };
      }
      break;
    }
  }
  const parsed = simulationSchema.safeParse({
    limits: limits.map(bucketLimitOfDraft),
    pattern,
    cost: num(cost),
  });
  if (!parsed.success) Object.assign(errors, errorsByPath(parsed.error.issues), errors);
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: parsed.data };
}

function n(value: number): string {
  return value.toLocaleString("en-US");
}

/** describePattern writes a pattern in words: "steady 20 req/s for 5 s". */
export function describePattern(pattern: Pattern): string {
  switch (pattern.kind) {
    case "steady":
      return `steady ${n(pattern.ratePerSecond)} req/s for ${n(pattern.seconds)} s`;
    case "bursts":
      return `bursts of ${n(pattern.size)} every ${n(pattern.everySeconds)} s for ${n(pattern.seconds)} s`;
    case "ramp":
      return `ramp from ${n(pattern.fromPerSecond)} to ${n(pattern.toPerSecond)} req/s over ${n(pattern.seconds)} s`;
    case "timestamps":
      return countOf(pattern.offsetsMs.length, "pasted timestamp");
  }
}
