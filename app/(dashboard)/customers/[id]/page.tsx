import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { KeyInspector } from "@/components/inspector/key-inspector";
import { getCustomer } from "@/db/queries/customers";
import { getRuntime } from "@/lib/runtime";
import { parseId } from "@/lib/schemas/params.schema";

export const metadata: Metadata = { title: "Key inspector · Ratekeeper" };

/** The key inspector: one customer's live buckets, traffic, overrides and test requests. */
export default async function CustomerInspectorPage({
  params,
}: {
  params: Promise<{ id: string }>;
}) {
  const id = parseId((await params).id);
  // A customer that is not there answers 404 as a malformed id does. Regression: /customers/999 answered
  // 200, its not-found page drawn only once the browser had asked the API.
  if (id === null || !getCustomer(getRuntime().db, id)) notFound();
  // The usage range lives in the URL (useSearchParams).
  return (
    <Suspense>
      <KeyInspector customerId={id} />
    </Suspense>
  );
}
