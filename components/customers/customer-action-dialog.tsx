"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ErrorNote } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { api } from "@/lib/client/api";
import type { CreatedCustomerResponse, CustomerListItem } from "@/lib/client/types";
import type { CustomerAction } from "./customer-columns";

const COPY: Record<CustomerAction, { title: string; confirm: string; body: string }> = {
  suspend: {
    title: "Suspend",
    confirm: "Suspend",
    body: "Its API requests are refused with 403 from the next request on, until you reactivate it.",
  },
  rotate: {
    title: "Rotate the key of",
    confirm: "Rotate key",
    body: "A new key is issued and shown once; the current key stops working at once.",
  },
  delete: {
    title: "Delete",
    confirm: "Delete customer",
    body: "The customer, its items and overrides are deleted and its key stops working. This cannot be undone.",
  },
};

/**
 * CustomerActionDialog confirms a suspend, key rotation or delete, runs it, and reports the new
 * key of a rotation through `onRotated`.
 */
export function CustomerActionDialog({
  action,
  customer,
  onClose,
  onRotated,
}: {
  action: CustomerAction;
  customer: CustomerListItem;
  onClose: () => void;
  onRotated: (created: CreatedCustomerResponse) => void;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const run = useMutation({
    mutationFn: async () => {
      const path = `/customers/${customer.id}`;
      if (action === "rotate")
        return api<CreatedCustomerResponse>(`${path}/rotate-key`, { method: "POST" });
      if (action === "delete") return api<void>(path, { method: "DELETE" });
      return api<void>(path, { method: "PATCH", body: { status: "suspended" } });
    },
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: ["customers"] });
      void queryClient.invalidateQueries({ queryKey: ["plans"] });
      if (action === "rotate" && result) onRotated(result);
      else toast(action === "delete" ? `${customer.name} deleted.` : `${customer.name} suspended.`);
      onClose();
    },
  });
  const copy = COPY[action];
  return (
    <ConfirmDialog
      title={`${copy.title} “${customer.name}”?`}
      confirmLabel={run.isPending ? "Working…" : copy.confirm}
      busy={run.isPending}
      onConfirm={() => run.mutate()}
      onCancel={onClose}
    >
      <p>{copy.body}</p>
      <ErrorNote error={run.error} />
    </ConfirmDialog>
  );
}
