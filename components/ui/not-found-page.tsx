import Link from "next/link";
import { PageHeader } from "./states";

const WHAT = {
  customer: { title: "Customer not found", href: "/customers", back: "Back to customers" },
  plan: { title: "Plan not found", href: "/plans", back: "Back to plans" },
} as const;

/**
 * NotFoundPage is the dashboard's page for a customer or plan that is not there: the same for an
 * id that names nothing (`/customers/999`) and one that is no id at all (`/customers/abc`).
 * Regression: the second showed Next's bare 404 inside the dashboard.
 */
export function NotFoundPage({ what }: { what: keyof typeof WHAT }) {
  const words = WHAT[what];
  return (
    <>
      <PageHeader title={words.title} />
      <div className="notice error" role="alert">
        No {what} has this address: it may have been deleted, or the link is mistyped.
      </div>
      <p>
        <Link href={words.href}>{words.back}</Link>
      </p>
    </>
  );
}
