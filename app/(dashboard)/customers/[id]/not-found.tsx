import { NotFoundPage } from "@/components/ui/not-found-page";

/** A customer address whose id is malformed: the same page as for a customer that is not there. */
export default function CustomerNotFound() {
  return <NotFoundPage what="customer" />;
}
