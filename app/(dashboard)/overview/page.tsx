import type { Metadata } from "next";
import { OverviewDashboard } from "./overview-dashboard";

export const metadata: Metadata = { title: "Overview · Ratekeeper" };

/** The overview page: live traffic across all customers. */
export default function OverviewPage() {
  return <OverviewDashboard />;
}
