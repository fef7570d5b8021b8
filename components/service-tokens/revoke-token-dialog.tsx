"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ErrorNote } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { api } from "@/lib/client/api";
import type { ServiceTokenView } from "@/lib/client/service-token-types";

/**
 * RevokeTokenDialog confirms and revokes a service token, saying what happens to a service that
 * still uses it: its calls are refused, and what a service on @ratekeeper/client then answers.
 */
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
        Every decision call with <code>{token.prefix}…</code> is refused (401) from the next one on.
        A service on <code>@ratekeeper/client</code> then answers each of its own requests 503
        (“Rate limiter misconfigured”) and logs an error, unless it opted into admitting them
        unlimited (<code>onMisconfigured: "admit"</code>).
      </p>
      <p>
        Give the service a new token first. This cannot be undone; its refused calls show on this
        page for an hour.
      </p>
      <ErrorNote error={revoke.error} />
    </ConfirmDialog>
  );
}
