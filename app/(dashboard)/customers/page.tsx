import type { Metadata } from "next";
import { Suspense } from "react";
import { CustomersPage } from "@/components/customers/customers-page";

export const metadata: Metadata = { title: "Customers · Ratekeeper" };

/** The customers page. */
export default function CustomersListPage() {
  // The list reads its view from the URL (useSearchParams).
  return (
    <Suspense>
      <CustomersPage />
    </Suspense>
  );
}
