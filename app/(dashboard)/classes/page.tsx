import type { Metadata } from "next";
import { ClassesPage } from "@/components/classes/classes-page";

export const metadata: Metadata = { title: "Classes · Ratekeeper" };

/** The operation classes page. */
export default function OperationClassesPage() {
  return <ClassesPage />;
}
