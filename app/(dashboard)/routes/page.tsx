import type { Metadata } from "next";
import { RouteRulesPage } from "@/components/route-rules/route-rules-page";

export const metadata: Metadata = { title: "Gateway routes · Ratekeeper" };

/** The gateway routes page. */
export default function GatewayRoutesPage() {
  return <RouteRulesPage />;
}
