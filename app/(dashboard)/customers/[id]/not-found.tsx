import { NotFoundPage } from "@/components/ui/not-found-page";

/** A customer address that names no customer: a malformed id, or one that is not (or no longer) there. */
export default function CustomerNotFound() {
  return <NotFoundPage what="customer" />;
}
