"use client";

import { CreateActions, NameField } from "@/components/ui/create-form-parts";
import { ErrorNote } from "@/components/ui/states";
import { useCreateForm } from "@/components/ui/use-create-form";
import { validateWith } from "@/components/ui/validation";
import type { CreatedServiceTokenResponse } from "@/lib/client/service-token-types";
import { serviceTokenCreateSchema } from "@/lib/schemas/service-token.schema";
import { SERVICE_TOKEN_SCOPES, type ServiceTokenScope } from "@/lib/vocabulary";
import styles from "./service-tokens.module.css";

/** SCOPE_HELP says what each scope lets a service do. */
const SCOPE_HELP: Record<ServiceTokenScope, string> = {
  decide: "take tokens from customers’ buckets (and peek)",
  peek: "only ask whether a request would pass, never take",
};

/** TokenFields are the new token form's fields. */
interface TokenFields {
  name: string;
  scopes: ServiceTokenScope[];
}

/** EMPTY is the form as it opens: a token that decides. */
const EMPTY: TokenFields = { name: "", scopes: ["decide"] };

/** validate checks the form with the server's own schema, errors by the server's paths. */
function validate(fields: TokenFields) {
  return validateWith(serviceTokenCreateSchema, fields);
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
  const form = useCreateForm({ initial: EMPTY, validate, path: "/service-tokens", onCreated });
  const { name, scopes } = form.values;
  const toggle = (scope: ServiceTokenScope, on: boolean) =>
    form.change({
      name,
      scopes: SERVICE_TOKEN_SCOPES.filter((s) => (s === scope ? on : scopes.includes(s))),
    });
  const scopeError = form.errors.scopes?.[0] ?? form.errors["scopes.0"]?.[0];
  return (
    <form className="card" noValidate onSubmit={form.submit}>
      <h2>New service token</h2>
      <div className="row align-start">
        <div className={styles.nameField}>
          <NameField
            value={name}
            error={form.errors.name?.[0]}
            hint="Which service uses it, e.g. “checkout-api”."
            onChange={(next) => form.change({ name: next, scopes })}
          />
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
        <CreateActions label="Create token" pending={form.pending} onCancel={onCancel} />
      </div>
      <ErrorNote error={form.failure} />
    </form>
  );
}
