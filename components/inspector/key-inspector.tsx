"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { orderedClasses } from "@/components/classes/class-words";
import { useClassNames } from "@/components/classes/use-classes";
import { QuotasCard } from "@/components/quotas/quotas-card";
import { NotFoundPage } from "@/components/ui/not-found-page";
import { ErrorNote, Loading, PageHeader } from "@/components/ui/states";
import { useUrlQuery } from "@/components/ui/use-url-query";
import { scopedRangeSchema } from "@/components/usage/usage-range";
import { ApiError, api } from "@/lib/client/api";
import type { CustomerResponse, InspectResponse, PlansResponse } from "@/lib/client/types";
import { bucketsOf } from "@/lib/vocabulary";
import { BillingDayEditor } from "./billing-day-editor";
import { CustomerDryRun } from "./customer-dry-run";
import { CustomerUsage } from "./customer-usage";
import { emptyHistory, type InspectorHistory, recordInspection, recordReplay } from "./history";
import styles from "./inspector.module.css";
import { OperationPanel } from "./operation-panel";
import { OverrideEditor } from "./override-editor";
import { ResetBucketsButton } from "./reset-buckets-button";
import { TestRequestPanel } from "./test-request-panel";
import { TrafficPanel } from "./traffic-panel";

/** HISTORY_SECONDS: the inspector opens with this much of each bucket's past, replayed. */
const HISTORY_SECONDS = 300;

const WINDOWS = [
  { ms: 60_000, label: "1 minute" },
  { ms: 120_000, label: "2 minutes" },
  { ms: 300_000, label: "5 minutes" },
];

/**
 * KeyInspector is the live view of one customer's key: it opens with the last five minutes of
 * each bucket replayed by the server, peeks at the buckets once a second (the inspect endpoint
 * consumes nothing), draws their refills between peeks, keeps five minutes of samples in the
 * browser, and offers overrides, a bucket reset and test requests.
 */
export function KeyInspector({ customerId }: { customerId: number }) {
  const customer = useQuery({
    queryKey: ["customers", customerId],
    queryFn: () => api<CustomerResponse>(`/customers/${customerId}`),
  });
  const plans = useQuery({ queryKey: ["plans"], queryFn: () => api<PlansResponse>("/plans") });
  const inspect = useQuery({
    queryKey: ["customers", customerId, "inspect"],
    queryFn: () => api<InspectResponse>(`/customers/${customerId}/inspect`),
    refetchInterval: 1_000,
    enabled: customer.isSuccess,
  });
  const classNames = useClassNames();
  // The classes the policy decides on (the inspection's, else the class list's), read and write first.
  const classes = orderedClasses(inspect.data ? Object.keys(inspect.data.operations) : classNames);
  // The buckets' past, once per set of limits (a changed limit is a new series).
  const limitsKey = inspect.data
    ? classes
        .map(
          (op) =>
            `${op}=${(inspect.data.operations[op]?.buckets ?? [])
              .map((b) => `${b.limit.count}/${b.limit.periodMs}`)
              .join(",")}`,
        )
        .join("|")
    : undefined;
  const past = useQuery({
    queryKey: ["customers", customerId, "inspect", "history", limitsKey],
    queryFn: () =>
      api<InspectResponse>(`/customers/${customerId}/inspect?history=${HISTORY_SECONDS}`),
    enabled: limitsKey !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
  const url = useUrlQuery(scopedRangeSchema);
  const [history, setHistory] = useState<InspectorHistory>(emptyHistory);
  const [windowMs, setWindowMs] = useState(60_000);
  useEffect(() => {
    const data = inspect.data;
    if (data) setHistory((h) => recordInspection(h, data));
  }, [inspect.data]);
  useEffect(() => {
    const data = past.data;
    if (data) setHistory((h) => recordReplay(h, data));
  }, [past.data]);

  if (customer.isPending) return <Loading label="Loading the customer…" />;
  if (customer.error instanceof ApiError && customer.error.status === 404) {
    return <NotFoundPage what="customer" />;
  }
  if (customer.isError) {
    return (
      <>
        <PageHeader title="Key inspector" />
        <ErrorNote error={customer.error} />
        <Link href="/customers">Back to customers</Link>
      </>
    );
  }
  const { customer: c, overrides } = customer.data;
  const plan = plans.data?.plans.find((p) => p.id === c.planId);
  return (
    <>
      <PageHeader
        title={c.name}
        description={
          <span className={styles.headerMeta}>
            <span>
              Plan <Link href={`/plans/${c.planId}`}>{c.planName}</Link>
            </span>
            <span
              className={`badge ${c.status === "active" ? "ok" : "bad"}`}
              data-testid="customer-status"
            >
              {c.status}
            </span>
            <span>
              Key <code>{c.apiKeyPrefix}…</code>
            </span>
            <Link href={`/audit?customer=${c.id}`}>Its audit log</Link>
            <Link href="/customers">All customers</Link>
          </span>
        }
        actions={
          <>
            <label className="muted" htmlFor="inspector-window">
              Window
            </label>
            <select
              id="inspector-window"
              value={windowMs}
              onChange={(e) => setWindowMs(Number(e.target.value))}
            >
              {WINDOWS.map((w) => (
                <option key={w.ms} value={w.ms}>
                  {w.label}
                </option>
              ))}
            </select>
            <ResetBucketsButton customerId={c.id} name={c.name} />
          </>
        }
      />
      {c.status === "suspended" ? (
        <div className="notice info">
          This customer is suspended: its API requests are refused with 403 and take no tokens.
        </div>
      ) : null}
      <ErrorNote error={inspect.error} />
      {inspect.data?.store.redis === "down" ? (
        <div className="notice error" data-testid="store-down">
          Redis is unreachable: these are this instance's in-memory stand-in buckets. Operations
          that fail open are limited by them; those that fail closed are refused with 503 until
          Redis answers again.
        </div>
      ) : null}
      <div className="grid cols-2">
        {classes.map((operation) => (
          <OperationPanel
            key={operation}
            operation={operation}
            decision={inspect.data?.operations[operation]}
            history={history}
            windowMs={windowMs}
            replayed={past.data?.history !== undefined}
          />
        ))}
      </div>
      <div className="grid cols-2">
        <TrafficPanel customerId={c.id} windowMs={windowMs} />
        <TestRequestPanel customerId={c.id} classes={classes} />
      </div>
      <CustomerUsage
        customerId={c.id}
        classes={classes}
        plan={plan}
        overrides={overrides}
        range={url.value.range}
        onRange={(range) => url.set({ range: range === "24h" ? undefined : range })}
      />
      <CustomerDryRun customerId={c.id} planId={c.planId} />
      <div className="grid cols-2">
        {/* Absent from a server that does not count quotas yet: no card then. */}
        {inspect.data?.quotas ? (
          <QuotasCard customerId={c.id} quotas={inspect.data.quotas} />
        ) : null}
        <BillingDayEditor key={c.billingAnchorDay} customer={c} />
      </div>
      <ErrorNote error={plans.error} />
      {plan ? (
        <div className="grid cols-2">
          {classes.map((operation) => {
            // Quotas are not edited here yet: only bucket limits start an override.
            const planLimits = bucketsOf(plan.limits.filter((l) => l.operation === operation));
            const override = overrides[operation];
            return (
              <OverrideEditor
                key={`${operation}:${JSON.stringify([override, planLimits])}`}
                customerId={c.id}
                operation={operation}
                override={override}
                planLimits={planLimits}
                now={history.now}
              />
            );
          })}
        </div>
      ) : plans.isPending ? (
        <Loading label="Loading the plan…" />
      ) : null}
    </>
  );
}
