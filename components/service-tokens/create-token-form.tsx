"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Field } from "@/components/ui/field";
import { ErrorNote } from "@/components/ui/states";
import { ApiError, api } from "@/lib/client/api";
import type { CreatedServiceTokenResponse } from "@/lib/client/service-token-types";
import { type FieldErrors, fieldErrorsOf } from "@/lib/schemas/problem.schema";
import {
  type ServiceTokenCreate,
  serviceTokenCreateSchema,
} from "@/lib/schemas/service-token.schema";
import { SERVICE_TOKEN_SCOPES, type ServiceTokenScope } from "@/lib/vocabulary";
import styles from "./service-tokens.module.css";

/** SCOPE_HELP says what each scope lets a service do. */
const SCOPE_HELP: Record<ServiceTokenScope, string> = {
  decide: "take tokens from customers’ buckets (and peek)",
  peek: "only ask whether a request would pass, never take",
};

function validate(name: string, scopes: ServiceTokenScope[]) {
  const parsed = serviceTokenCreateSchema.safeParse({ name, scopes });
  return parsed.success
    ? ({ ok: true, data: parsed.data } as const)
    : ({ ok: false, errors: fieldErrorsOf(parsed.error) } as const);
}

/**
 * CreateTokenForm asks for a name and the scopes, checks them with the server's own schema,
 * and hands the created token on.
 */
export function CreateTokenForm({
  onCreated,
  onCancel,
}: {
  onCreated: (created: CreatedServiceTokenResponse) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<ServiceTokenScope[]>(["decide"]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [checking, setChecking] = useState(false);
  const create = useMutation({
    mutationFn: (body: ServiceTokenCreate) =>
      api<CreatedServiceTokenResponse>("/service-tokens", { method: "POST", body }),
    onSuccess: onCreated,
    onError: (error) => {
      if (error instanceof ApiError) setErrors(error.errors);
    },
  });
  const change = (nextName: string, nextScopes: ServiceTokenScope[]) => {
    setName(nextName);
    setScopes(nextScopes);
    if (checking) {
      const result = validate(nextName, nextScopes);
      setErrors(result.ok ? {} : result.errors);
    }
  };
  const toggle = (scope: ServiceTokenScope, on: boolean) =>
    change(
      name,
      SERVICE_TOKEN_SCOPES.filter((s) => (s === scope ? on : scopes.includes(s))),
    );
  const scopeError = errors.scopes?.[0] ?? errors["scopes.0"]?.[0];
  const fieldErrors = create.error instanceof ApiError && Object.keys(create.error.errors).length;
  return (
    <form
      className="card"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const result = validate(name, scopes);
        setChecking(!result.ok);
        setErrors(result.ok ? {} : result.errors);
        if (result.ok) create.mutate(result.data);
        else create.reset();
      }}
    >
      <h2>New service token</h2>
      <div className="row align-start">
        <div className={styles.nameField}>
          <Field
            label="Name"
            error={errors.name?.[0]}
            hint="Which service uses it, e.g. “checkout-api”."
          >
            {(props) => (
              <input
                {...props}
                value={name}
                autoComplete="off"
                // biome-ignore lint/a11y/noAutofocus: the form opens on the operator's click
                autoFocus
                onChange={(e) => change(e.target.value, scopes)}
              />
            )}
          </Field>
        </div>
        <fieldset
          className={styles.scopes}
          aria-describedby={scopeError ? "scope-error" : undefined}
        >
          <legend>Scopes</legend>
          {SERVICE_TOKEN_SCOPES.map((scope) => (
            <label key={scope} className={styles.scope}>
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(e) => toggle(scope, e.target.checked)}
              />
              <span>
                <code>{scope}</code> <span className="muted small">{SCOPE_HELP[scope]}</span>
              </span>
            </label>
          ))}
          {scopeError ? (
            <span id="scope-error" className="field-error" role="alert">
              {scopeError}
            </span>
          ) : null}
        </fieldset>
        <div className="row field-actions">
          <button type="submit" className="btn primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create token"}
          </button>
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </div>
      {fieldErrors ? null : <ErrorNote error={create.error} />}
    </form>
  );
}
