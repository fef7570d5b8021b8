import type { Metadata } from "next";
import { PlansList } from "@/components/plans/plans-list";

export const metadata: Metadata = { title: "Plans · Ratekeeper" };

/** The plans page. */
export default function PlansPage() {
  return <PlansList />;
}
