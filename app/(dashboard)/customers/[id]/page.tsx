import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { KeyInspector } from "@/components/inspector/key-inspector";
import { parseId } from "@/lib/schemas/params.schema";

export const metadata: Metadata = { title: "Key inspector · Ratekeeper" };

/** The key inspector: one customer's live buckets, traffic, overrides and test requests. */
export default async function CustomerInspectorPage({
  params,
}: {
  params: Promise<{ id: string }>;
}) {
  const id = parseId((await params).id);
  if (id === null) notFound();
  // The usage range lives in the URL (useSearchParams).
  return (
    <Suspense>
      <KeyInspector customerId={id} />
    </Suspense>
  );
}
