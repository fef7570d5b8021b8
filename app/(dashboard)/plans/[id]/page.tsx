import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { EditPlan } from "@/components/plans/edit-plan";
import { getPlan } from "@/db/queries/plans";
import { getRuntime } from "@/lib/runtime";
import { parseId } from "@/lib/schemas/params.schema";

export const metadata: Metadata = { title: "Edit plan · Ratekeeper" };

/** The page that edits one plan. */
export default async function EditPlanPage({ params }: { params: Promise<{ id: string }> }) {
  const id = parseId((await params).id);
  // A plan that is not there answers 404 as a malformed id does. Regression: /plans/999 answered
  // 200, its not-found page drawn only once the browser had asked the API.
  if (id === null || !getPlan(getRuntime().db, id)) notFound();
  // The usage range lives in the URL (useSearchParams).
  return (
    <Suspense>
      <EditPlan id={id} />
    </Suspense>
  );
}
