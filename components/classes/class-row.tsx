"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ErrorNote } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { ApiError, api } from "@/lib/client/api";
import type { ClassResponse, ClassView } from "@/lib/client/class-types";
import { formatDateTime } from "@/lib/time-format";
import { classUse, whyNotDeletable } from "./class-use";
import { CLASSES_KEY } from "./use-classes";

/**
 * ClassRow is one operation class: its name, description (edited in place), who uses it, when it
 * was made, and Delete, disabled with its reason while the class cannot go.
 */
export function ClassRow({
  item,
  onDelete,
}: {
  item: ClassView;
  onDelete: (item: ClassView) => void;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const [description, setDescription] = useState(item.description);
  const save = useMutation({
    mutationFn: (body: { description: string }) =>
      api<ClassResponse>(`/classes/${item.name}`, { method: "PATCH", body }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: CLASSES_KEY });
      setEditing(false);
      toast(`The description of ${item.name} is saved.`);
    },
  });
  const fieldError =
    save.error instanceof ApiError ? save.error.fieldError("description") : undefined;
  const blocked = whyNotDeletable(item);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ description });
  };
  return (
    <tr>
      <td className="strong" data-label="Name">
        <span className="cell">
          <code>{item.name}</code>
          {item.builtIn ? <span className="badge">default</span> : null}
        </span>
      </td>
      <td data-label="Description">
        {editing ? (
          <form className="row" onSubmit={submit} noValidate>
            <input
              aria-label={`Description of ${item.name}`}
              aria-invalid={Boolean(fieldError)}
              value={description}
              // biome-ignore lint/a11y/noAutofocus: the field opens on the operator's click
              autoFocus
              onChange={(e) => setDescription(e.target.value)}
            />
            <button type="submit" className="btn small primary" disabled={save.isPending}>
              {save.isPending ? "Saving…" : "Save"}
            </button>
            <button
              type="button"
              className="btn small"
              onClick={() => {
                setEditing(false);
                setDescription(item.description);
                save.reset();
              }}
            >
              Cancel
            </button>
            {fieldError ? (
              <span className="field-error" role="alert">
                {fieldError}
              </span>
            ) : (
              <ErrorNote error={save.error} />
            )}
          </form>
        ) : (
          <span className="cell">
            {item.description || <span className="muted">No description</span>}
          </span>
        )}
      </td>
      <td data-label="Used by">
        <span className="cell">{classUse(item)}</span>
      </td>
      <td className="nowrap" data-label="Created">
        <span className="cell">
          <time dateTime={new Date(item.createdAt).toISOString()}>
            {formatDateTime(item.createdAt)}
          </time>
        </span>
      </td>
      <td data-label="Actions">
        <span className="cell row">
          {editing ? null : (
            <button
              type="button"
              className="btn small"
              aria-label={`Edit the description of ${item.name}`}
              onClick={() => setEditing(true)}
            >
              Edit
            </button>
          )}
          <button
            type="button"
            className="btn small danger"
            aria-label={`Delete ${item.name}`}
            disabled={blocked !== null}
            title={blocked ?? undefined}
            onClick={() => onDelete(item)}
          >
            Delete
          </button>
          {blocked ? <span className="muted small">{blocked}</span> : null}
        </span>
      </td>
    </tr>
  );
}
