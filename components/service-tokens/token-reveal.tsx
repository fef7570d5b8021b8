"use client";

import { SecretReveal } from "@/components/ui/secret-reveal";
import type { ServiceTokenScope } from "@/lib/vocabulary";
import styles from "./service-tokens.module.css";
import { tryItFor } from "./try-it";

/**
 * TokenReveal shows a new service token once, with a Copy button and a first call to try that
 * its scopes allow (a peek-only token peeks).
 */
export function TokenReveal({
  name,
  token,
  scopes,
  origin,
  onDone,
}: {
  name: string;
  token: string;
  scopes: readonly ServiceTokenScope[];
  origin: string;
  onDone: () => void;
}) {
  const tryIt = tryItFor(origin, token, scopes);
  return (
    <SecretReveal
      label="New service token"
      title={`Service token for ${name}`}
      secret={token}
      secretName="Service token"
      onDone={onDone}
      intro={
        <>
          Copy this token now and store it with the service’s secrets.{" "}
          <strong>It won’t be shown again</strong>: Ratekeeper keeps only a hash of it, and its
          first characters (the prefix) so you can tell tokens apart.
        </>
      }
    >
      <details className={styles.example}>
        <summary>{tryIt.title}</summary>
        <p className="muted small">{tryIt.note}</p>
        <pre>{tryIt.command}</pre>
      </details>
    </SecretReveal>
  );
}
