"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useToast } from "@/components/ui/toast";
import { api } from "@/lib/client/api";
import type { ResetResponse } from "@/lib/client/types";

/** ResetBucketsButton forgets a customer's buckets, after confirmation: both operations start full. */
export function ResetBucketsButton({ customerId, name }: { customerId: number; name: string }) {
  const [asking, setAsking] = useState(false);
  const queryClient = useQueryClient();
  const notify = useToast();
  const reset = useMutation({
    mutationFn: () => api<ResetResponse>(`/customers/${customerId}/reset`, { method: "POST" }),
    onSuccess: ({ deleted }) => {
      setAsking(false);
      notify(`Buckets reset: ${deleted} cleared, every bucket is full again`);
      void queryClient.invalidateQueries({ queryKey: ["customers", customerId, "inspect"] });
    },
    onError: (error) => {
      setAsking(false);
      notify(`Could not reset the buckets: ${error.message}`, "error");
    },
  });
  const cancel = useCallback(() => setAsking(false), []);
  return (
    <>
      <button type="button" className="btn danger" onClick={() => setAsking(true)}>
        Reset buckets
      </button>
      {asking ? (
        <ConfirmDialog
          title="Reset buckets?"
          confirmLabel="Reset buckets"
          busy={reset.isPending}
          onConfirm={() => reset.mutate()}
          onCancel={cancel}
        >
          <p>
            Every read and write bucket of <strong>{name}</strong> starts full again, as if it had
            made no request lately. Limits and overrides are not changed.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
