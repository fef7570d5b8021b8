import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";
import { Providers } from "./providers";

// Every page is rendered per request, so that each carries its response's CSP nonce on its
// scripts (a page prerendered at build time, the 404 page included, would carry none).
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Ratekeeper",
  description: "Policy-managed rate limiting with an operator dashboard.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
