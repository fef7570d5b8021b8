"use client";

import { Field } from "@/components/ui/field";
import type { DraftErrors } from "@/components/ui/field-errors";
import { Select } from "@/components/ui/select";
import { MAX_COST } from "@/lib/schemas/cost.schema";
import { MAX_SIMULATED_REQUESTS } from "@/lib/simulator/pattern";
import { PATTERN_KINDS, type PatternDraft } from "./pattern-draft";
import styles from "./simulator.module.css";

function NumberField({
  label,
  value,
  error,
  hint,
  onChange,
  min = 0,
  max,
}: {
  label: string;
  value: string;
  error: string | undefined;
  hint?: string;
  onChange: (value: string) => void;
  /** min and max bound the input's arrows (validation is the schema's). */
  min?: number;
  max?: number;
}) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(props) => (
        <input
          {...props}
          type="number"
          inputMode="decimal"
          min={min}
          max={max}
          step="any"
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

/** PatternCard edits the traffic pattern to simulate and the cost of each request. */
export function PatternCard({
  draft,
  cost,
  errors,
  onDraft,
  onCost,
}: {
  draft: PatternDraft;
  cost: string;
  errors: DraftErrors;
  onDraft: (draft: PatternDraft) => void;
  onCost: (cost: string) => void;
}) {
  const set = (change: Partial<PatternDraft>) => onDraft({ ...draft, ...change });
  const seconds = (
    <NumberField
      label="For (seconds)"
      value={draft.seconds}
      error={errors["pattern.seconds"]}
      onChange={(v) => set({ seconds: v })}
    />
  );
  return (
    <section className="card" aria-labelledby="sim-pattern-heading">
      <h2 id="sim-pattern-heading">Traffic</h2>
      <div className={styles.fields}>
        <Field label="Pattern">
          {(props) => (
            <Select
              {...props}
              value={draft.kind}
              choices={PATTERN_KINDS}
              onChange={(kind) => set({ kind })}
            />
          )}
        </Field>
        <NumberField
          label="Cost per request"
          min={1}
          max={MAX_COST}
          value={cost}
          error={errors.cost}
          hint="Tokens each request takes"
          onChange={onCost}
        />
      </div>
      <div className={styles.fields}>
        {draft.kind === "steady" ? (
          <>
            <NumberField
              label="Requests per second"
              value={draft.rate}
              error={errors["pattern.ratePerSecond"]}
              onChange={(v) => set({ rate: v })}
            />
            {seconds}
          </>
        ) : null}
        {draft.kind === "bursts" ? (
          <>
            <NumberField
              label="Requests per burst"
              value={draft.size}
              error={errors["pattern.size"]}
              onChange={(v) => set({ size: v })}
            />
            <NumberField
              label="Every (seconds)"
              value={draft.every}
              error={errors["pattern.everySeconds"]}
              onChange={(v) => set({ every: v })}
            />
            {seconds}
          </>
        ) : null}
        {draft.kind === "ramp" ? (
          <>
            <NumberField
              label="From (req/s)"
              value={draft.from}
              error={errors["pattern.fromPerSecond"]}
              onChange={(v) => set({ from: v })}
            />
            <NumberField
              label="To (req/s)"
              value={draft.to}
              error={errors["pattern.toPerSecond"]}
              onChange={(v) => set({ to: v })}
            />
            {seconds}
          </>
        ) : null}
      </div>
      {draft.kind === "timestamps" ? (
        <Field
          label="Timestamps (ms from the start)"
          error={errors["pattern.offsetsMs"]}
          hint="Whole milliseconds, one per line or separated by commas; order does not matter."
        >
          {(props) => (
            <textarea
              {...props}
              rows={5}
              style={{ width: "100%", fontFamily: "var(--mono)" }}
              value={draft.timestamps}
              onChange={(e) => set({ timestamps: e.target.value })}
            />
          )}
        </Field>
      ) : null}
      {errors.pattern ? (
        <p className={styles.error} role="alert">
          {errors.pattern}
        </p>
      ) : (
        <p className={styles.hint}>
          At most {MAX_SIMULATED_REQUESTS.toLocaleString("en-US")} requests. A ramp's rate moves
          linearly from the first second to the last.
        </p>
      )}
    </section>
  );
}
