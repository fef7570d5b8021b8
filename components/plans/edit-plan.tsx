"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Fragment, type ReactNode, useState } from "react";
import { classTitle, orderedClasses } from "@/components/classes/class-words";
import { describeAnyLimits } from "@/components/ui/limit-words";
import { NotFoundPage } from "@/components/ui/not-found-page";
import { ErrorNote, Loading, PageHeader } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { useUrlQuery } from "@/components/ui/use-url-query";
import { scopedRangeSchema } from "@/components/usage/usage-range";
import { ApiError, api } from "@/lib/client/api";
import type { PlanResponse, PlansResponse, PlanWithLimits } from "@/lib/client/types";
import { countOf } from "@/lib/format";
import { DEFAULT_CLASSES } from "@/lib/vocabulary";
import { draftFromPlan, validateUpdate } from "./plan-draft";
import { PlanDryRun } from "./plan-dry-run";
import { PlanForm } from "./plan-form";
import { PlanUsage } from "./plan-usage";

/** SAVED_MESSAGE tells the operator when an edit takes effect. */
export const SAVED_MESSAGE = "Saved. The next API request uses the new limits.";

/** EditPlan is the page that edits one plan's fields and limits. */
export function EditPlan({ id }: { id: number }) {
  const url = useUrlQuery(scopedRangeSchema);
  // Promoting dry-run limits changes the stored plan under the form: it starts again from it.
  const [promotions, setPromotions] = useState(0);
  const queryClient = useQueryClient();
  const plan = useQuery({
    queryKey: ["plan", id],
    queryFn: () => api<PlanResponse>(`/plans/${id}`),
  });
  const list = useQuery({ queryKey: ["plans"], queryFn: () => api<PlansResponse>("/plans") });
  const customers = list.data?.plans.find((p) => p.id === id)?.customerCount;

  if (plan.error instanceof ApiError && plan.error.status === 404) {
    return <NotFoundPage what="plan" />;
  }
  if (!plan.data) {
    return (
      <>
        <PageHeader title="Edit plan" />
        {plan.error ? <ErrorNote error={plan.error} /> : <Loading label="Loading plan…" />}
      </>
    );
  }
  return (
    <Editor
      key={promotions}
      plan={plan.data.plan}
      customers={customers}
      usage={
        <>
          <PlanDryRun
            plan={plan.data.plan}
            onPromoted={(next) => {
              queryClient.setQueryData(["plan", next.id], { plan: next });
              setPromotions((n) => n + 1);
            }}
          />
          <PlanUsage
            planId={id}
            range={url.value.range}
            onRange={(range) => url.set({ range: range === "24h" ? undefined : range })}
          />
        </>
      }
    />
  );
}

function Editor({
  plan,
  customers,
  usage,
}: {
  plan: PlanWithLimits;
  customers?: number;
  usage: ReactNode;
}) {
  const [initial] = useState(() => draftFromPlan(plan));
  const [saved, setSaved] = useState(plan);
  const queryClient = useQueryClient();
  const toast = useToast();
  return (
    <>
      <PageHeader
        title={`Edit plan “${saved.name}”`}
        description="Changes apply to every customer on this plan from their next API request."
      />
      {usage}
      <h2 className="section-title">Plan and limits</h2>
      <PlanForm
        initial={initial}
        autoSlug={false}
        submitLabel="Save changes"
        previewTitle="After saving"
        validate={(draft) => validateUpdate(draft, saved)}
        save={async (body) => {
          if (Object.keys(body).length === 0) {
            toast("Nothing to change.");
            return undefined;
          }
          const { plan: next } = await api<PlanResponse>(`/plans/${saved.id}`, {
            method: "PATCH",
            body,
          });
          setSaved(next);
          queryClient.setQueryData(["plan", next.id], { plan: next });
          void queryClient.invalidateQueries({ queryKey: ["plans"] });
          void queryClient.invalidateQueries({ queryKey: ["audit"] });
          toast(SAVED_MESSAGE);
          return draftFromPlan(next);
        }}
        aside={
          <section className="in-effect" aria-label="In effect now">
            <h3>In effect now</h3>
            <dl>
              {orderedClasses([...DEFAULT_CLASSES, ...saved.limits.map((l) => l.operation)]).map(
                (operation) => (
                  <Fragment key={operation}>
                    <dt>{classTitle(operation)}</dt>
                    <dd>
                      {describeAnyLimits(saved.limits.filter((l) => l.operation === operation))}
                    </dd>
                  </Fragment>
                ),
              )}
              <dt>Used by</dt>
              <dd>{customers === undefined ? "…" : countOf(customers, "customer")}</dd>
            </dl>
          </section>
        }
      />
    </>
  );
}
