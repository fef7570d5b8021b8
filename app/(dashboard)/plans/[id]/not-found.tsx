import { NotFoundPage } from "@/components/ui/not-found-page";

/** A plan address that names no plan: a malformed id, or one that is not (or no longer) there. */
export default function PlanNotFound() {
  return <NotFoundPage what="plan" />;
}
