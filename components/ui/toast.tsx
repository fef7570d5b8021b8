"use client";

import { usePathname } from "next/navigation";
import { useEffect } from "react";
import { Toaster as Sonner, toast } from "sonner";

/** TOAST_MS is how long a toast stays: 4 seconds (hovering or focusing it pauses the count). */
export const TOAST_MS = 4_000;

type Notify = (message: string, tone?: "info" | "error") => void;

/**
 * notify shows one short message, replacing any still showing: toasts never pile up, and a
 * screen reader hears each once (sonner's polite live region).
 */
export const notify: Notify = (message, tone = "info") => {
  toast.dismiss();
  if (tone === "error") toast.error(message);
  else toast(message);
};

/**
 * Toaster is the one place toasts show: bottom right (full width on a phone), one at a time,
 * in the system's light or dark theme, dismissed when the operator moves to another page.
 */
export function Toaster() {
  const pathname = usePathname();
  useEffect(() => {
    // A toast belongs to the page it was raised on. Regression: toasts followed the operator.
    if (pathname) toast.dismiss();
  }, [pathname]);
  return (
    <Sonner
      theme="system"
      position="bottom-right"
      visibleToasts={1}
      duration={TOAST_MS}
      closeButton
      containerAriaLabel="Notifications"
      toastOptions={{ className: "toast" }}
    />
  );
}

/** useToast returns the function that shows a toast. */
export function useToast(): Notify {
  return notify;
}
