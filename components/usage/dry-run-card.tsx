"use client";

import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { HeadedCard } from "@/components/ui/card";
import { ErrorNote } from "@/components/ui/states";
import { api } from "@/lib/client/api";
import type { DryRunResponse } from "@/lib/client/types";
import { DryRunLimits } from "./dry-run-limits";
import { RANGE_REFRESH_MS } from "./use-range-now";

/**
 * useDryRunReport reads a dry-run report (a customer's or a plan's, at `path`) under `queryKey`,
 * asked again as often as the usage rollups flush.
 */
export function useDryRunReport(queryKey: readonly unknown[], path: string) {
  return useQuery({
    queryKey,
    queryFn: () => api<DryRunResponse>(path),
    refetchInterval: RANGE_REFRESH_MS,
  });
}

/**
 * DryRunCard shows a dry-run report in a card headed "Dry run", `note` beside the heading
 * (whose traffic, over which range): the report's failure, each tried limit's verdict (with
 * where it was set, given `withSource`), and `children` (the controls that promote) beneath.
 */
export function DryRunCard({
  headingId,
  note,
  report,
  withSource = false,
  children,
}: {
  headingId: string;
  note: string;
  report: ReturnType<typeof useDryRunReport>;
  withSource?: boolean;
  children: ReactNode;
}) {
  return (
    <HeadedCard headingId={headingId} title="Dry run" note={note}>
      <ErrorNote error={report.error} />
      <DryRunLimits
        limits={report.data?.limits ?? []}
        range={{ fromMs: report.data?.fromMs ?? 0, toMs: report.data?.toMs ?? 0 }}
        withSource={withSource}
      />
      {children}
    </HeadedCard>
  );
}
