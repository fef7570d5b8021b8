"use client";

import Link from "next/link";
import { type FormEvent, Fragment, type ReactNode, useState } from "react";
import { classTitle, orderedClasses } from "@/components/classes/class-words";
import { useClassNames } from "@/components/classes/use-classes";
import { Field } from "@/components/ui/field";
import { firstErrors } from "@/components/ui/field-errors";
import { useLeaveGuard } from "@/components/ui/leave-guard";
import {
  limitDraft,
  type OperationLimitDraft,
  operatorZone,
  quotaDraft,
} from "@/components/ui/limit-draft";
import { type LimitAdd, LimitRows } from "@/components/ui/limit-rows";
import { ErrorNote } from "@/components/ui/states";
import type { Validation } from "@/components/ui/validation";
import { ApiError } from "@/lib/client/api";
import type { FieldErrors } from "@/lib/schemas/problem.schema";
import { DEFAULT_CLASSES } from "@/lib/vocabulary";
import { limitsInWords, type PlanDraft, sameDraft, slugify } from "./plan-draft";

/**
 * ADD_LIMITS are the plan editor's add buttons: a read or a write limit, 10 per second, or a
 * read quota, 100,000 per month in the operator's time zone.
 */
const ADD_LIMITS: readonly LimitAdd<OperationLimitDraft>[] = [
  { label: "+ Add read limit", row: () => limitDraft("read", 10, 1, "s") },
  { label: "+ Add write limit", row: () => limitDraft("write", 10, 1, "s") },
  { label: "+ Add quota", row: () => quotaDraft("read", 100_000, "month", operatorZone()) },
];

/** placedPaths are the error paths the form shows at a control; others show at the top. */
function placedPaths(draft: PlanDraft): Set<string> {
  const paths = new Set(["name", "slug", "description", "limits"]);
  draft.limits.forEach((_, i) => {
    for (const suffix of ["", ".operation", ".count", ".periodMs", ".period", ".timeZone"])
      paths.add(`limits.${i}${suffix}`);
  });
  return paths;
}

/**
 * PlanForm edits a plan's fields and limits. It checks the draft with `validate` (the server's
 * own schema) before `save` is called, and shows client and server field errors at the field.
 */
export function PlanForm<T>({
  initial,
  autoSlug,
  submitLabel,
  validate,
  save,
  previewTitle = "In words",
  aside,
}: {
  initial: PlanDraft;
  /** autoSlug derives the slug from the name until the slug is edited (new plans). */
  autoSlug: boolean;
  submitLabel: string;
  validate: (draft: PlanDraft) => Validation<T>;
  /** save sends the checked body; it resolves to the draft to continue from, if any. */
  save: (data: T) => Promise<PlanDraft | undefined>;
  /** previewTitle heads the draft's limits in words. */
  previewTitle?: string;
  aside?: ReactNode;
}) {
  const [saved, setSaved] = useState(initial);
  const [draft, setDraft] = useState(initial);
  const [slugTouched, setSlugTouched] = useState(!autoSlug);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [checking, setChecking] = useState(false);
  const [failure, setFailure] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const dirty = !sameDraft(draft, saved);
  const classes = useClassNames();
  // The summary: reads and writes always, then each other class the rows name.
  const summaryClasses = orderedClasses([
    ...DEFAULT_CLASSES,
    ...draft.limits.map((l) => l.operation),
  ]);
  // Leaving the page with unsaved changes asks first (a link, sign-out, reload or close).
  useLeaveGuard(dirty);
  // A new plan can be submitted as it is (to see what is missing); an edit needs a change.
  const canSubmit = autoSlug || dirty;

  const change = (next: PlanDraft) => {
    setDraft(next);
    // After a failed attempt, errors follow the edits (and disappear once fixed).
    if (checking) {
      const result = validate(next);
      setErrors(result.ok ? {} : result.errors);
    }
  };
  const error = (path: string) => errors[path]?.[0];
  const placed = placedPaths(draft);
  const elsewhere = Object.entries(errors)
    .filter(([path]) => !placed.has(path))
    .map(([path, messages]) => (path ? `${path}: ${messages[0]}` : messages[0]));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(undefined);
    const result = validate(draft);
    if (!result.ok) {
      setChecking(true);
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const next = await save(result.data);
      if (next) {
        setSaved(next);
        setDraft(next);
        setChecking(false);
      }
    } catch (e) {
      if (e instanceof ApiError && Object.keys(e.errors).length > 0) setErrors(e.errors);
      else setFailure(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="editor" noValidate onSubmit={submit}>
      <div className="editor-main">
        <section className="card">
          <h2>Plan</h2>
          <div className="field-pair">
            <Field label="Name" error={error("name")}>
              {(props) => (
                <input
                  {...props}
                  value={draft.name}
                  maxLength={200}
                  autoComplete="off"
                  onChange={(e) => {
                    const name = e.target.value;
                    change({ ...draft, name, slug: slugTouched ? draft.slug : slugify(name) });
                  }}
                />
              )}
            </Field>
            <Field label="Slug" error={error("slug")} hint="Lowercase letters, digits and dashes.">
              {(props) => (
                <input
                  {...props}
                  className="mono"
                  value={draft.slug}
                  autoComplete="off"
                  spellCheck={false}
                  onChange={(e) => {
                    setSlugTouched(true);
                    change({ ...draft, slug: e.target.value });
                  }}
                />
              )}
            </Field>
          </div>
          <Field label="Description" error={error("description")} hint="Optional; for operators.">
            {(props) => (
              <textarea
                {...props}
                rows={2}
                value={draft.description}
                onChange={(e) => change({ ...draft, description: e.target.value })}
              />
            )}
          </Field>
        </section>

        <section className="card">
          <h2>Limits</h2>
          <p className="muted intro">
            GET and HEAD are reads, other methods write, unless a request names another class (see{" "}
            <Link href="/classes">Classes</Link>). A request passes when every enforced limit of its
            class has room; a dry-run limit only counts what it would refuse. A limit refills
            steadily; a quota counts requests per calendar day, week or month and starts again at
            the next one (months from each customer&rsquo;s billing day).
          </p>
          <LimitRows
            rows={draft.limits}
            errors={firstErrors(errors)}
            withOperation
            classes={classes}
            withDryRun
            adds={ADD_LIMITS}
            empty={
              <p className="notice info">
                No limits: customers on this plan are never refused. Add a limit to cap them.
              </p>
            }
            onChange={(limits) => change({ ...draft, limits })}
          />
        </section>

        {elsewhere.length > 0 ? (
          <div className="notice error" role="alert">
            {elsewhere.join(" ")}
          </div>
        ) : null}
        <ErrorNote error={failure} />
        <div className="form-actions">
          <button type="submit" className="btn primary" disabled={busy || !canSubmit}>
            {busy ? "Saving…" : submitLabel}
          </button>
          <Link href="/plans" className="btn">
            {dirty ? "Cancel" : "Back to plans"}
          </Link>
          {dirty && !busy ? <span className="muted">Unsaved changes</span> : null}
        </div>
      </div>

      <aside className="editor-aside">
        <section className="card summary">
          <h2>{previewTitle}</h2>
          <dl>
            {summaryClasses.map((operation) => (
              <Fragment key={operation}>
                <dt>{classTitle(operation)}</dt>
                <dd data-testid={`words-${operation}`}>{limitsInWords(draft, operation)}</dd>
              </Fragment>
            ))}
          </dl>
          {aside}
        </section>
      </aside>
    </form>
  );
}
