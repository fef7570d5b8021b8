"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { formatCount } from "@/components/charts/number-format";
import { Field } from "@/components/ui/field";
import { errorsByPath, firstErrors } from "@/components/ui/field-errors";
import { ErrorNote } from "@/components/ui/states";
import { ApiError, api } from "@/lib/client/api";
import type { TestRequestResponse } from "@/lib/client/types";
import { countOf } from "@/lib/format";
import { MAX_COST } from "@/lib/schemas/cost.schema";
import { testRequestSchema } from "@/lib/schemas/customer.schema";
import type { Operation } from "@/lib/vocabulary";
import { formatWait } from "./format";
import styles from "./inspector.module.css";

/** REASON_LABELS name each decision reason as the badge shows it after the status. */
const REASON_LABELS: Record<TestRequestResponse["reason"], string> = {
  ok: "allowed",
  rate_limited: "too many requests",
  cost_exceeds_limit: "cost exceeds a limit",
  store_unavailable: "store unavailable",
  unknown_key: "unknown key",
  suspended: "customer suspended",
};

/** CLASS_HINTS say which methods fall into the default classes. */
const CLASS_HINTS: Readonly<Record<string, string>> = {
  read: "read (GET)",
  write: "write (POST, PUT, DELETE)",
};

/**
 * TestRequestPanel makes one real decision for the customer (tokens are consumed, as by an API
 * request) with a chosen operation class (of `classes`, read and write first) and cost, and shows
 * the outcome.
 */
export function TestRequestPanel({
  customerId,
  classes,
}: {
  customerId: number;
  classes: readonly Operation[];
}) {
  const queryClient = useQueryClient();
  const [operation, setOperation] = useState<Operation>("read");
  const [cost, setCost] = useState("1");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const send = useMutation({
    mutationFn: (body: { operation: Operation; cost: number }) =>
      api<TestRequestResponse>(`/customers/${customerId}/test-request`, {
        method: "POST",
        body,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["customers", customerId, "inspect"] });
      void queryClient.invalidateQueries({ queryKey: ["traffic"] });
    },
    onError: (error) => {
      if (error instanceof ApiError) setErrors(firstErrors(error.errors));
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = testRequestSchema.safeParse({
      operation,
      cost: cost.trim() === "" ? Number.NaN : Number(cost),
    });
    if (!parsed.success) {
      setErrors(errorsByPath(parsed.error.issues));
      return;
    }
    setErrors({});
    send.mutate(parsed.data);
  }

  const outcome = send.data;
  return (
    <section className="card" aria-labelledby="test-request-heading">
      <h2 id="test-request-heading">Send a test request</h2>
      <p className="muted" style={{ marginTop: 0 }}>
        A real decision, as an API request would get: the tokens are taken from the buckets.
      </p>
      <form className={styles.inline} onSubmit={submit} noValidate>
        <Field label="Operation" error={errors.operation}>
          {(props) => (
            <select
              {...props}
              value={operation}
              onChange={(e) => setOperation(e.target.value as Operation)}
            >
              {classes.map((name) => (
                <option key={name} value={name}>
                  {CLASS_HINTS[name] ?? name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Cost" error={errors.cost}>
          {(props) => (
            <input
              {...props}
              type="number"
              inputMode="numeric"
              min={1}
              max={MAX_COST}
              step={1}
              style={{ width: 90 }}
              value={cost}
              onChange={(e) => setCost(e.target.value)}
            />
          )}
        </Field>
        <button type="submit" className="btn primary" disabled={send.isPending}>
          {send.isPending ? <span className="spinner" /> : null}
          Send test request
        </button>
      </form>
      {send.error && !(send.error instanceof ApiError && Object.keys(send.error.errors).length) ? (
        <div style={{ marginTop: 12 }}>
          <ErrorNote error={send.error} />
        </div>
      ) : null}
      {outcome ? (
        <div className={styles.outcome} aria-live="polite" data-testid="test-outcome">
          <span
            className={`badge ${outcome.status === 200 ? "ok" : "bad"}`}
            data-testid="test-status"
          >
            {outcome.status} {REASON_LABELS[outcome.reason]}
          </span>{" "}
          {outcome.decision ? (
            <span className="muted">
              {countOf(outcome.decision.tokensRequested, "token")} requested,{" "}
              {outcome.decision.tokensConsumed} taken
            </span>
          ) : null}
          {outcome.decision ? (
            <dl>
              <div>
                <dt>Remaining</dt>
                <dd data-testid="test-remaining">
                  {outcome.decision.tokensRemaining === null
                    ? "unlimited"
                    : formatCount(outcome.decision.tokensRemaining)}
                </dd>
              </div>
              <div>
                <dt>Retry after</dt>
                <dd data-testid="test-retry-after">
                  {outcome.status === 200 ? "none" : formatWait(outcome.decision.retryAfterMs)}
                </dd>
              </div>
              <div>
                <dt>Limits</dt>
                <dd>{outcome.decision.source}</dd>
              </div>
            </dl>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
