import { NotFoundPage } from "@/components/ui/not-found-page";

/** A plan address whose id is malformed: the same page as for a plan that is not there. */
export default function PlanNotFound() {
  return <NotFoundPage what="plan" />;
}
