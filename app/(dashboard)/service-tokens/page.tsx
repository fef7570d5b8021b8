import type { Metadata } from "next";
import { ServiceTokensPage } from "@/components/service-tokens/service-tokens-page";

export const metadata: Metadata = { title: "Service tokens · Ratekeeper" };

/** The service tokens page. */
export default function ServiceTokensListPage() {
  return <ServiceTokensPage />;
}
