import type { Metadata } from "next";
import { Suspense } from "react";
import { PlansList } from "@/components/plans/plans-list";

export const metadata: Metadata = { title: "Plans · Ratekeeper" };

/** The plans page. */
export default function PlansPage() {
  // The list reads its view from the URL (useSearchParams).
  return (
    <Suspense>
      <PlansList />
    </Suspense>
  );
}
