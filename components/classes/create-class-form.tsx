"use client";

import { CreateActions, NameField } from "@/components/ui/create-form-parts";
import { Field } from "@/components/ui/field";
import { ErrorNote } from "@/components/ui/states";
import { useCreateForm } from "@/components/ui/use-create-form";
import { validateWith } from "@/components/ui/validation";
import type { ClassResponse } from "@/lib/client/class-types";
import { classCreateSchema } from "@/lib/schemas/operation-class.schema";

/** ClassFields are the new class form's fields. */
interface ClassFields {
  name: string;
  description: string;
}

const EMPTY: ClassFields = { name: "", description: "" };

/** validate checks the form with the server's own schema, errors by the server's paths. */
function validate(fields: ClassFields) {
  return validateWith(classCreateSchema, fields);
}

/**
 * CreateClassForm asks for a new operation class's name and description, checks them with the
 * server's own schema, and hands the created class on.
 */
export function CreateClassForm({
  onCreated,
  onCancel,
}: {
  onCreated: (created: ClassResponse) => void;
  onCancel: () => void;
}) {
  const form = useCreateForm({ initial: EMPTY, validate, path: "/classes", onCreated });
  const { name, description } = form.values;
  return (
    <form className="card" noValidate onSubmit={form.submit}>
      <h2>New class</h2>
      <div className="row align-start">
        <NameField
          value={name}
          error={form.errors.name?.[0]}
          hint="Lowercase letters, digits and hyphens, e.g. “exports”."
          onChange={(next) => form.change({ name: next, description })}
        />
        <Field
          label="Description"
          error={form.errors.description?.[0]}
          hint="What requests it stands for, e.g. “CSV exports”."
        >
          {(props) => (
            <input
              {...props}
              value={description}
              autoComplete="off"
              onChange={(e) => form.change({ name, description: e.target.value })}
            />
          )}
        </Field>
        <CreateActions label="Create class" pending={form.pending} onCancel={onCancel} />
      </div>
      <ErrorNote error={form.failure} />
    </form>
  );
}
