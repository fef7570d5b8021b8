"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { api } from "@/lib/client/api";
import { StoreStatus } from "./store-status";

const LINKS = [
  { href: "/overview", label: "Overview" },
  { href: "/plans", label: "Plans" },
  { href: "/customers", label: "Customers" },
  { href: "/service-tokens", label: "Service tokens" },
  { href: "/simulator", label: "Simulator" },
  { href: "/audit", label: "Audit log" },
];

/** Sidebar is the dashboard's navigation, with sign-out at the bottom. */
export function Sidebar() {
  const pathname = usePathname();
  const router = useRouter();
  return (
    <nav className="sidebar" aria-label="Main">
      <div className="brand">Ratekeeper</div>
      {LINKS.map((link) => (
        <Link
          key={link.href}
          href={link.href}
          aria-current={pathname.startsWith(link.href) ? "page" : undefined}
        >
          {link.label}
        </Link>
      ))}
      <div className="spacer" />
      <StoreStatus />
      <button
        type="button"
        className="btn ghost"
        onClick={async () => {
          await api("/session", { method: "DELETE" });
          router.replace("/login");
        }}
      >
        Sign out
      </button>
    </nav>
  );
}
