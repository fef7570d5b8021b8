import type { Metadata } from "next";
import { Suspense } from "react";
import { AuditLog } from "@/components/audit/audit-log";

export const metadata: Metadata = { title: "Audit log · Ratekeeper" };

/** The audit log page. */
export default function AuditPage() {
  // The list reads its view from the URL (useSearchParams).
  return (
    <Suspense>
      <AuditLog />
    </Suspense>
  );
}
