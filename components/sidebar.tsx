"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useEffect, useId, useState } from "react";
import { api } from "@/lib/client/api";
import { loginPathFor } from "@/lib/next-path";
import { StoreStatus } from "./store-status";
import { useConfirmLeave } from "./ui/leave-guard";

/** NAV_LINKS are the dashboard's pages, in the navigation's order. */
export const NAV_LINKS = [
  { href: "/overview", label: "Overview" },
  { href: "/plans", label: "Plans" },
  { href: "/customers", label: "Customers" },
  { href: "/classes", label: "Classes" },
  { href: "/service-tokens", label: "Service tokens" },
  { href: "/routes", label: "Gateway routes" },
  { href: "/simulator", label: "Simulator" },
  { href: "/audit", label: "Audit log" },
];

/**
 * Sidebar is the dashboard's navigation, with sign-out at the bottom. On a wide screen it is a
 * column at the left; below 1024 px it folds into a slim top bar whose Menu button opens it
 * (Escape or moving to a page closes it again).
 */
export function Sidebar() {
  const pathname = usePathname();
  const router = useRouter();
  const confirmLeave = useConfirmLeave();
  const panelId = useId();
  const [open, setOpen] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page closes the menu
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") setOpen(false);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);
  return (
    <header className={`sidebar${open ? " open" : ""}`}>
      <div className="sidebar-top">
        <Link href="/overview" className="brand">
          Ratekeeper
        </Link>
        <button
          type="button"
          className="btn ghost menu-button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
        >
          <span aria-hidden="true">{open ? "✕" : "☰"}</span> Menu
        </button>
      </div>
      <div id={panelId} className="sidebar-panel">
        <nav aria-label="Main">
          <ul>
            {NAV_LINKS.map((link) => (
              <li key={link.href}>
                <Link
                  href={link.href}
                  aria-current={pathname.startsWith(link.href) ? "page" : undefined}
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="spacer" />
        <StoreStatus />
        <button
          type="button"
          className="btn ghost sign-out"
          onClick={() =>
            confirmLeave(async () => {
              await api("/session", { method: "DELETE" });
              // Signing in again comes back here, query and all.
              router.replace(loginPathFor(window.location.pathname + window.location.search));
            })
          }
        >
          Sign out
        </button>
      </div>
    </header>
  );
}
