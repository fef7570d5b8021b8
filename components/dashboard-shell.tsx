import type { ReactNode } from "react";
import { Sidebar } from "@/components/sidebar";
import { LeaveGuardProvider } from "@/components/ui/leave-guard";

/**
 * DashboardShell is the frame of every page an operator sees signed in: the skip link, the
 * sidebar and the main area, under one guard for unsaved changes. The dashboard's layout and the
 * page for an unknown address both draw it, so a mistyped address stays inside the product.
 */
export function DashboardShell({ children }: { children: ReactNode }) {
  return (
    <LeaveGuardProvider>
      <div className="shell">
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        <Sidebar />
        <main id="main" className="content" tabIndex={-1}>
          {children}
        </main>
      </div>
    </LeaveGuardProvider>
  );
}
