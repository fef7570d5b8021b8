import { headers } from "next/headers";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { DashboardShell } from "@/components/dashboard-shell";
import { REQUEST_TARGET_HEADER } from "@/lib/http/request-target";
import { currentOperator } from "@/lib/next/session";
import { LOGIN_PATH, loginPathFor } from "@/lib/next-path";

export const dynamic = "force-dynamic";

/**
 * The dashboard's frame: every page in it needs an operator session, else the login page, with
 * the page asked for (path and query) as `next`. Regression: `/customers?q=acme&plan=2` went to
 * a bare /login, and signing in landed on the overview.
 */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  if (!(await currentOperator())) {
    redirect(loginPathFor((await headers()).get(REQUEST_TARGET_HEADER) ?? LOGIN_PATH));
  }
  return <DashboardShell>{children}</DashboardShell>;
}
