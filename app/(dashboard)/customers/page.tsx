import type { Metadata } from "next";
import { CustomersPage } from "@/components/customers/customers-page";

export const metadata: Metadata = { title: "Customers · Ratekeeper" };

/** The customers page. */
export default function CustomersListPage() {
  return <CustomersPage />;
}
