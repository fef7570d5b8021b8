"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { Empty, ErrorNote, Loading, PageHeader } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import type { ClassView } from "@/lib/client/class-types";
import { ClassRow } from "./class-row";
import { CreateClassForm } from "./create-class-form";
import { DeleteClassDialog } from "./delete-class-dialog";
import { CLASSES_KEY, useClasses } from "./use-classes";

/**
 * ClassesPage lists the operation classes (read and write first) with who uses them, adds one
 * (name and description), edits a description in place and deletes an unused class, saying why
 * a class cannot go otherwise.
 */
export function ClassesPage() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const classes = useClasses();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<ClassView>();
  const closeDialog = useCallback(() => setDeleting(undefined), []);
  const list = classes.data?.classes ?? [];
  return (
    <>
      <PageHeader
        title="Operation classes"
        description={
          <>
            Plans and overrides limit each class on its own buckets. Requests fall into{" "}
            <code>read</code> (GET, HEAD) or <code>write</code> unless they name a class (
            <code>"operation": "exports"</code>).
          </>
        }
        actions={
          <button
            type="button"
            className="btn primary nowrap"
            disabled={creating}
            onClick={() => setCreating(true)}
          >
            New class
          </button>
        }
      />
      {creating ? (
        <CreateClassForm
          onCancel={() => setCreating(false)}
          onCreated={async (created) => {
            setCreating(false);
            await queryClient.invalidateQueries({ queryKey: CLASSES_KEY });
            toast(`${created.class.name} created: plans and overrides can limit it now.`);
          }}
        />
      ) : null}
      <ErrorNote error={classes.error} />
      {classes.isPending ? (
        <Loading label="Loading classes…" />
      ) : list.length === 0 ? (
        <Empty>No classes.</Empty>
      ) : (
        <div className="table-wrap">
          <table className="data-table reflow">
            <caption className="sr-only">Operation classes</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Description</th>
                <th scope="col">Used by</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((item) => (
                <ClassRow key={item.name} item={item} onDelete={setDeleting} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {deleting ? <DeleteClassDialog item={deleting} onClose={closeDialog} /> : null}
    </>
  );
}
