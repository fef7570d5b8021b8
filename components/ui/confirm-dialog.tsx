"use client";

import * as Dialog from "@radix-ui/react-dialog";
import { type ReactNode, useEffect, useRef } from "react";

/**
 * ConfirmDialog asks before a consequential action. It is modal (Radix Dialog): focus moves to
 * Cancel, stays inside while it is open, and returns to where it was when it closes; Escape or
 * Cancel closes it. `blocked` keeps the confirm button disabled (the body says why).
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  busy,
  blocked,
  tone = "danger",
  onConfirm,
  onCancel,
}: {
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  blocked?: boolean;
  tone?: "danger" | "primary";
  onConfirm: () => void;
  onCancel: () => void;
}) {
  // The dialog mounts and unmounts with its parent's state, so it gives focus back itself: to
  // the control that opened it, if that is still on the page.
  const opener = useRef<Element | null>(null);
  if (opener.current === null && typeof document !== "undefined")
    opener.current = document.activeElement;
  useEffect(
    () => () => {
      const back = opener.current;
      setTimeout(() => {
        if (back instanceof HTMLElement && back.isConnected) back.focus();
      }, 0);
    },
    [],
  );
  return (
    <Dialog.Root open onOpenChange={(open) => (open ? undefined : onCancel())}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-backdrop" />
        <Dialog.Content
          className="dialog"
          onOpenAutoFocus={(event) => {
            // The safe choice first: Cancel, not the destructive button.
            event.preventDefault();
            (event.currentTarget as HTMLElement | null)
              ?.querySelector<HTMLButtonElement>("[data-cancel]")
              ?.focus();
          }}
        >
          <Dialog.Title>{title}</Dialog.Title>
          <Dialog.Description asChild>
            <div>{children}</div>
          </Dialog.Description>
          <div className="actions">
            <Dialog.Close asChild>
              <button type="button" className="btn" data-cancel>
                Cancel
              </button>
            </Dialog.Close>
            <button
              type="button"
              className={`btn ${tone}`}
              disabled={busy || blocked}
              onClick={onConfirm}
            >
              {confirmLabel}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
