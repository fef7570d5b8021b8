import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { EditPlan } from "@/components/plans/edit-plan";
import { parseId } from "@/lib/schemas/params.schema";

export const metadata: Metadata = { title: "Edit plan · Ratekeeper" };

/** The page that edits one plan. */
export default async function EditPlanPage({ params }: { params: Promise<{ id: string }> }) {
  const id = parseId((await params).id);
  if (id === null) notFound();
  // The usage range lives in the URL (useSearchParams).
  return (
    <Suspense>
      <EditPlan id={id} />
    </Suspense>
  );
}
