"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useLeaveGuard } from "@/components/ui/leave-guard";
import { ErrorNote, Loading, PageHeader } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { ApiError, api } from "@/lib/client/api";
import type { FieldErrors } from "@/lib/schemas/problem.schema";
import type { RouteRulesAnswer } from "@/lib/schemas/route-rule-answer.schema";
import { RouteRuleRow } from "./route-rule-row";
import styles from "./route-rules.module.css";
import {
  describeChanges,
  draftOfRule,
  moveRule,
  newRuleDraft,
  type RuleDraft,
  rulesSummary,
  sameRules,
  toRuleBody,
  validateRules,
} from "./route-rules-draft";
import { RouteTest } from "./route-test";

/** SAVED_MESSAGE tells the operator when saved rules take effect. */
export const SAVED_MESSAGE = "Saved. The gateway's next request uses the new rules.";

/** RouteRulesPage is the "Gateway routes" page: the ordered rules, their editor and a path test. */
export function RouteRulesPage() {
  const rules = useQuery({
    queryKey: ["route-rules"],
    queryFn: () => api<RouteRulesAnswer>("/route-rules"),
  });
  return (
    <>
      <PageHeader
        title="Gateway routes"
        description="How the gateway meters a request by its method and path: the first rule that matches decides its class and cost, or lets it through unmetered. A request no rule matches is one token of its method's class."
      />
      {rules.data ? (
        <Editor answer={rules.data} />
      ) : rules.error ? (
        <ErrorNote error={rules.error} />
      ) : (
        <Loading label="Loading route rules…" />
      )}
      <RouteTest />
    </>
  );
}

function Editor({ answer }: { answer: RouteRulesAnswer }) {
  const [saved, setSaved] = useState(() => answer.rules.map(draftOfRule));
  const [draft, setDraft] = useState(saved);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [checking, setChecking] = useState(false);
  const [confirming, setConfirming] = useState<string[]>();
  const [failure, setFailure] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const toast = useToast();
  const dirty = !sameRules(draft, saved);
  // Leaving the page with unsaved changes asks first (a link, sign-out, reload or close).
  useLeaveGuard(dirty);

  const change = (next: RuleDraft[]) => {
    setDraft(next);
    // After a failed attempt, errors follow the edits (and disappear once fixed).
    if (checking) {
      const result = validateRules(next);
      setErrors(result.ok ? {} : result.errors);
    }
  };
  const error = (path: string) => errors[path]?.[0];
  const listError = error("rules") ?? error("");

  const review = (event: FormEvent) => {
    event.preventDefault();
    setFailure(undefined);
    const result = validateRules(draft);
    if (!result.ok) {
      setChecking(true);
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setConfirming(describeChanges(saved.map(toRuleBody), draft.map(toRuleBody)));
  };
  const save = async () => {
    const result = validateRules(draft);
    if (!result.ok) return;
    setBusy(true);
    try {
      const next = await api<RouteRulesAnswer>("/route-rules", {
        method: "PUT",
        body: result.data,
      });
      const rows = next.rules.map(draftOfRule);
      setSaved(rows);
      setDraft(rows);
      setChecking(false);
      queryClient.setQueryData(["route-rules"], next);
      void queryClient.invalidateQueries({ queryKey: ["audit"] });
      toast(SAVED_MESSAGE);
    } catch (e) {
      if (e instanceof ApiError && Object.keys(e.errors).length > 0) setErrors(e.errors);
      else setFailure(e);
    } finally {
      setBusy(false);
      setConfirming(undefined);
    }
  };

  return (
    <form className="card" noValidate onSubmit={review} aria-label="Route rules">
      <h2>Rules, in order</h2>
      <p className="muted intro">
        {rulesSummary(saved.length)}. Patterns match the path after /gw, as sent (not decoded),
        without the query: <code>*</code> is one segment, a final <code>**</code> any rest.
      </p>
      {draft.length > 0 ? (
        <div className="table-wrap">
          <table className={styles.rules}>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Method</th>
                <th scope="col">Pattern</th>
                <th scope="col">Effect</th>
                <th scope="col">Class</th>
                <th scope="col">Cost (tokens)</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {draft.map((rule, index) => (
                <RouteRuleRow
                  key={rule.key}
                  index={index}
                  count={draft.length}
                  rule={rule}
                  classes={answer.classes}
                  error={error}
                  onChange={(next) => change(draft.map((r, i) => (i === index ? next : r)))}
                  onMove={(by) => change(moveRule(draft, index, by))}
                  onRemove={() => change(draft.filter((_, i) => i !== index))}
                />
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="notice info">No rules: every request is metered by its method.</p>
      )}
      {listError ? (
        <div className="notice error" role="alert">
          {listError}
        </div>
      ) : null}
      <ErrorNote error={failure} />
      <div className="form-actions">
        <button type="button" className="btn" onClick={() => change([...draft, newRuleDraft()])}>
          + Add rule
        </button>
        <button type="submit" className="btn primary" disabled={busy || !dirty}>
          {busy ? "Saving…" : "Save rules"}
        </button>
        {dirty ? (
          <button type="button" className="btn ghost" onClick={() => change(saved)}>
            Discard changes
          </button>
        ) : null}
        {dirty && !busy ? <span className="muted">Unsaved changes</span> : null}
      </div>
      {confirming ? (
        <ConfirmDialog
          title="Save the route rules?"
          confirmLabel="Save rules"
          tone="primary"
          busy={busy}
          onConfirm={() => void save()}
          onCancel={() => setConfirming(undefined)}
        >
          <p>The gateway meters its next request by the new rules:</p>
          <ul>
            {confirming.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </ConfirmDialog>
      ) : null}
    </form>
  );
}
