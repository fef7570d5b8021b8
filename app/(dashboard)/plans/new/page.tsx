import type { Metadata } from "next";
import { NewPlan } from "@/components/plans/new-plan";

export const metadata: Metadata = { title: "New plan · Ratekeeper" };

/** The page that creates a plan. */
export default function NewPlanPage() {
  return <NewPlan />;
}
