import type { Metadata } from "next";
import { Suspense } from "react";
import { OverviewDashboard } from "./overview-dashboard";

export const metadata: Metadata = { title: "Overview · Ratekeeper" };

/** The overview page: traffic across all customers, live or over a range. */
export default function OverviewPage() {
  // The range lives in the URL (useSearchParams).
  return (
    <Suspense>
      <OverviewDashboard />
    </Suspense>
  );
}
