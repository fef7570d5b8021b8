import type { Metadata } from "next";
import { AuditLog } from "./audit-log";

export const metadata: Metadata = { title: "Audit log · Ratekeeper" };

/** The audit log page. */
export default function AuditPage() {
  return <AuditLog />;
}
