import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { Sidebar } from "@/components/sidebar";
import { currentOperator } from "@/lib/route/session";

export const dynamic = "force-dynamic";

/** The dashboard's frame: every page in it needs an operator session, else the login page. */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  if (!(await currentOperator())) redirect("/login");
  return (
    <div className="shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Sidebar />
      <main id="main" className="content" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
