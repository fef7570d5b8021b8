"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ErrorNote } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { api } from "@/lib/client/api";
import type { ServiceTokenView } from "@/lib/client/service-token-types";

/** RevokeTokenDialog confirms and revokes a service token. */
export function RevokeTokenDialog({
  token,
  onClose,
}: {
  token: ServiceTokenView;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const revoke = useMutation({
    mutationFn: () => api<void>(`/service-tokens/${token.id}`, { method: "DELETE" }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ["service-tokens"] });
      toast(`${token.name} revoked: its next decision is refused.`);
      onClose();
    },
  });
  return (
    <ConfirmDialog
      title={`Revoke “${token.name}”?`}
      confirmLabel={revoke.isPending ? "Revoking…" : "Revoke token"}
      busy={revoke.isPending}
      onConfirm={() => revoke.mutate()}
      onCancel={onClose}
    >
      <p>
        Services using <code>{token.prefix}…</code> are refused (401) from their next decision on.
        This cannot be undone: create a new token to replace it.
      </p>
      <ErrorNote error={revoke.error} />
    </ConfirmDialog>
  );
}
