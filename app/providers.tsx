"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { z } from "zod";
import { Toaster } from "@/components/ui/toast";
import { createQueryClient } from "@/lib/client/query-client";

// The dashboard's CSP forbids eval: zod must not even probe for it (the probe, though caught,
// is reported as a CSP violation), nor compile its parsers with `new Function`.
z.config({ jitless: true });

/** Providers gives every page the query client and the toasts. */
export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(createQueryClient);
  return (
    <QueryClientProvider client={client}>
      {children}
      <Toaster />
    </QueryClientProvider>
  );
}
