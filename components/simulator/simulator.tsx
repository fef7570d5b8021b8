"use client";

import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { DraftErrors } from "@/components/ui/field-errors";
import { draftOfLimit, type LimitDraft } from "@/components/ui/limit-draft";
import { bucketsOf } from "@/components/ui/limit-words";
import { ErrorNote, PageHeader } from "@/components/ui/states";
import { api } from "@/lib/client/api";
import type { PlansResponse } from "@/lib/client/types";
import { type SimulationResult, simulate } from "@/lib/simulator/simulate";
import type { SimulationInput } from "@/lib/simulator/simulation.schema";
import { LimitsCard, sourceOf } from "./limits-card";
import { PatternCard } from "./pattern-card";
import { defaultPatternDraft, type PatternDraft, simulationOfDraft } from "./pattern-draft";
import { SimulationResults } from "./simulation-results";
import styles from "./simulator.module.css";

/**
 * Simulator replays a traffic pattern against limits in the browser, with lib/limiter itself on
 * a simulated clock, and shows what would be allowed and denied. Nothing is saved or sent.
 */
export function Simulator() {
  const plans = useQuery({ queryKey: ["plans"], queryFn: () => api<PlansResponse>("/plans") });
  const [source, setSource] = useState("custom");
  const [rows, setRows] = useState<LimitDraft[]>([{ count: "10", amount: "1", unit: "s" }]);
  const [pattern, setPattern] = useState<PatternDraft>(defaultPatternDraft);
  const [cost, setCost] = useState("1");
  const [errors, setErrors] = useState<DraftErrors>({});
  const [run, setRun] = useState<{ input: SimulationInput; result: SimulationResult }>();
  // A run refused for its fields leaves the last result in place, marked as out of date.
  const [stale, setStale] = useState(false);

  const planList = plans.data?.plans ?? [];
  const sourceRows = (value: string): LimitDraft[] | undefined => {
    const { planId, operation } = sourceOf(value);
    const plan = planList.find((p) => p.id === planId);
    if (!plan) return undefined;
    // A plan's quotas count calendar periods, which a simulated burst does not reach: only its
    // token buckets are simulated.
    return bucketsOf(plan.limits.filter((l) => l.operation === operation)).map(draftOfLimit);
  };
  const original = sourceRows(source);
  const edited = original !== undefined && JSON.stringify(original) !== JSON.stringify(rows);

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = simulationOfDraft(rows, pattern, cost);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      setStale(true);
      return;
    }
    setErrors({});
    setStale(false);
    const input = parsed.value;
    setRun({ input, result: simulate(input.limits, input.pattern, input.cost) });
  }

  return (
    <>
      <PageHeader
        title="Simulator"
        description="Replay traffic against limits, with the limiter the API uses, on a simulated clock. Nothing is saved."
      />
      <ErrorNote error={plans.error} />
      <form onSubmit={submit} noValidate>
        <div className="grid cols-2">
          <LimitsCard
            plans={planList}
            source={source}
            edited={edited}
            rows={rows}
            errors={errors}
            onSource={(value) => {
              setSource(value);
              const next = sourceRows(value);
              if (next) setRows(next);
            }}
            onRows={setRows}
          />
          <PatternCard
            draft={pattern}
            cost={cost}
            errors={errors}
            onDraft={setPattern}
            onCost={setCost}
          />
        </div>
        <div className={styles.runBar}>
          <button type="submit" className="btn primary">
            Simulate
          </button>
          {Object.keys(errors).length > 0 ? (
            <span className={styles.error} role="alert">
              Fix the fields marked above.
            </span>
          ) : null}
        </div>
      </form>
      {run ? <SimulationResults input={run.input} result={run.result} stale={stale} /> : null}
    </>
  );
}
