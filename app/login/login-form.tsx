"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Field } from "@/components/ui/field";
import { ApiError, api } from "@/lib/client/api";
import { safeNextPath } from "@/lib/next-path";

/** LoginForm posts the admin password and moves on to `next` (if a path of this server). */
export function LoginForm({ next }: { next: string }) {
  const router = useRouter();
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  return (
    <form
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        setError(undefined);
        try {
          await api("/session", { method: "POST", body: { password } });
          router.replace(safeNextPath(next));
          router.refresh();
        } catch (e) {
          setError(
            e instanceof ApiError ? (e.fieldError("password") ?? e.title) : "Could not sign in",
          );
          setBusy(false);
        }
      }}
    >
      <Field label="Password" error={error}>
        {(props) => (
          <input
            {...props}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
        )}
      </Field>
      <button type="submit" className="btn primary" disabled={busy}>
        {busy ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
