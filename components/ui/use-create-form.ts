"use client";

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ApiError, api } from "@/lib/client/api";
import type { FieldErrors } from "@/lib/schemas/problem.schema";
import type { Validation } from "./validation";

/** CreateForm is a create form's state as useCreateForm keeps it. */
export interface CreateForm<V> {
  /** values are the fields as the operator typed them. */
  values: V;
  /** errors are the client's or the server's messages by dotted field path. */
  errors: FieldErrors;
  /** change takes the next values; after a refused attempt the errors follow the edits. */
  change: (next: V) => void;
  /** submit checks the values and sends them when they pass. */
  submit: (event: FormEvent) => void;
  /** pending is true while the create request runs. */
  pending: boolean;
  /** failure is the request's error when its field errors do not already show at the fields. */
  failure: unknown;
}

/**
 * useCreateForm keeps a create form: it checks the values with `validate` (the server's own
 * schema) before it POSTs them to `path`, shows client and server field errors by path, lets
 * the errors follow the edits after a refused attempt, and hands the created thing on.
 */
export function useCreateForm<V, B, C>({
  initial,
  validate,
  path,
  onCreated,
}: {
  initial: V;
  validate: (values: V) => Validation<B>;
  /** path is the admin API collection the form creates in ("/customers"). */
  path: string;
  onCreated: (created: C) => void;
}): CreateForm<V> {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [checking, setChecking] = useState(false);
  const create = useMutation({
    mutationFn: (body: B) => api<C>(path, { method: "POST", body }),
    onSuccess: onCreated,
    onError: (error) => {
      if (error instanceof ApiError) setErrors(error.errors);
    },
  });
  const change = (next: V) => {
    setValues(next);
    if (checking) {
      const result = validate(next);
      setErrors(result.ok ? {} : result.errors);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(values);
    setChecking(!result.ok);
    setErrors(result.ok ? {} : result.errors);
    if (result.ok) create.mutate(result.data);
    else create.reset(); // a refused attempt leaves no earlier failure showing
  };
  const fieldErrors =
    create.error instanceof ApiError && Object.keys(create.error.errors).length > 0;
  return {
    values,
    errors,
    change,
    submit,
    pending: create.isPending,
    failure: fieldErrors ? null : create.error,
  };
}
