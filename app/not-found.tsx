import type { Metadata } from "next";
import Link from "next/link";
import { DashboardShell } from "@/components/dashboard-shell";
import { PageHeader } from "@/components/ui/states";
import { currentOperator } from "@/lib/next/session";

export const metadata: Metadata = { title: "Page not found · Ratekeeper" };

const WHY = "Nothing is at this address: the link may be mistyped, or the page may have moved.";

/**
 * The page for an address that names no page (answered 404): inside the dashboard's frame for a
 * signed-in operator, with a way to the overview; on its own, with a way to sign in, for anyone
 * else. Regression: Next's bare "404 | This page could not be found.", outside the dashboard.
 */
export default async function NotFound() {
  if (await currentOperator()) {
    return (
      <DashboardShell>
        <PageHeader title="Page not found" />
        <div className="notice error" role="alert">
          {WHY}
        </div>
        <p>
          <Link href="/overview">Go to the overview</Link>
        </p>
      </DashboardShell>
    );
  }
  return (
    <main className="login">
      <div className="card">
        <h1>Page not found</h1>
        <p className="muted">{WHY}</p>
        <p>
          <Link href="/login">Sign in</Link>
        </p>
      </div>
    </main>
  );
}
