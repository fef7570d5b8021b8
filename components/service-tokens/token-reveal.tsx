"use client";

import { SecretReveal } from "@/components/ui/secret-reveal";
import styles from "./service-tokens.module.css";

/** TokenReveal shows a new service token once, with a Copy button and a first request to try. */
export function TokenReveal({
  name,
  token,
  origin,
  onDone,
}: {
  name: string;
  token: string;
  origin: string;
  onDone: () => void;
}) {
  const example = [
    `curl -s ${origin}/api/v1/decisions \\`,
    `  -H "Authorization: Bearer ${token}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '{"key": "rk_…customer key…", "operation": "read"}'`,
  ].join("\n");
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
        <summary>Try it: one decision with curl</summary>
        <pre>{example}</pre>
      </details>
    </SecretReveal>
  );
}
