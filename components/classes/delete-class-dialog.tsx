"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ErrorNote } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { api } from "@/lib/client/api";
import type { ClassView } from "@/lib/client/class-types";
import { CLASSES_KEY } from "./use-classes";

/**
 * DeleteClassDialog confirms and deletes an unused operation class, saying what happens to the
 * requests that still name it (refused with 400) and to its history (kept).
 */
export function DeleteClassDialog({ item, onClose }: { item: ClassView; onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const remove = useMutation({
    mutationFn: () => api<void>(`/classes/${item.name}`, { method: "DELETE" }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: CLASSES_KEY });
      toast(`${item.name} deleted: requests that name it are refused from the next one.`);
      onClose();
    },
  });
  return (
    <ConfirmDialog
      title={`Delete the class “${item.name}”?`}
      confirmLabel={remove.isPending ? "Deleting…" : "Delete class"}
      busy={remove.isPending}
      onConfirm={() => remove.mutate()}
      onCancel={onClose}
    >
      <p>
        From the next request, a decision that names <code>{item.name}</code> is refused with 400
        (“Unknown class”). Its usage history is kept.
      </p>
      <ErrorNote error={remove.error} />
    </ConfirmDialog>
  );
}
