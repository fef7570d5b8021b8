"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ErrorNote } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { DryRunLimits } from "@/components/usage/dry-run-limits";
import { RANGE_REFRESH_MS } from "@/components/usage/use-range-now";
import { api } from "@/lib/client/api";
import type { DryRunResponse } from "@/lib/client/types";
import { describeLimits } from "@/lib/format";
import { OPERATIONS, type Operation } from "@/lib/vocabulary";

/**
 * CustomerDryRun shows what the dry-run limits tried on a customer (its overrides' or its
 * plan's) would have refused of its traffic over the last 24 hours, and promotes an override's
 * dry-run limits to enforced (confirmed first; audited by the API). A plan's are promoted on
 * the plan's page. Nothing shows while none was tried.
 */
export function CustomerDryRun({ customerId, planId }: { customerId: number; planId: number }) {
  const report = useQuery({
    queryKey: ["customers", customerId, "dry-run"],
    queryFn: () => api<DryRunResponse>(`/customers/${customerId}/dry-run`),
    refetchInterval: RANGE_REFRESH_MS,
  });
  const queryClient = useQueryClient();
  const toast = useToast();
  const [promoting, setPromoting] = useState<Operation>();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>();
  const limits = report.data?.limits ?? [];
  if (!report.error && limits.length === 0) return null;
  const promotable = (operation: Operation) =>
    limits.filter(
      (l) => l.operation === operation && l.source === "override" && l.state === "dry-run",
    );
  const planTried = limits.some((l) => l.source === "plan" && l.state === "dry-run");

  const promote = async (operation: Operation) => {
    setBusy(true);
    setFailure(undefined);
    try {
      await api(`/customers/${customerId}/overrides/${operation}/promote`, { method: "POST" });
      setPromoting(undefined);
      void queryClient.invalidateQueries({ queryKey: ["customers", customerId] });
      void queryClient.invalidateQueries({ queryKey: ["audit"] });
      toast(`The override's dry-run ${operation} limits are enforced from the next request.`);
    } catch (e) {
      setFailure(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="customer-dry-run-heading">
      <div className="card-header">
        <h2 id="customer-dry-run-heading">Dry run</h2>
        <span className="muted">this customer's traffic, the last 24 h</span>
      </div>
      <ErrorNote error={report.error} />
      <DryRunLimits
        limits={limits}
        range={{ fromMs: report.data?.fromMs ?? 0, toMs: report.data?.toMs ?? 0 }}
        withSource
      />
      <div className="row">
        {OPERATIONS.map((operation) =>
          promotable(operation).length > 0 ? (
            <button
              key={operation}
              type="button"
              className="btn primary"
              onClick={() => setPromoting(operation)}
            >
              Promote the override's {operation} limits
            </button>
          ) : null,
        )}
        {planTried ? (
          <Link className="small" href={`/plans/${planId}`}>
            The plan's dry-run limits are promoted on its page
          </Link>
        ) : null}
      </div>
      {promoting ? (
        <ConfirmDialog
          title={`Enforce the override's dry-run ${promoting} limits?`}
          confirmLabel="Promote to enforced"
          tone="primary"
          busy={busy}
          onConfirm={() => void promote(promoting)}
          onCancel={() => setPromoting(undefined)}
        >
          <p>
            From the next request, this customer's {promoting}s are refused beyond{" "}
            {describeLimits(promotable(promoting))}.
          </p>
          <ErrorNote error={failure} />
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
