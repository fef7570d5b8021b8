"use client";

import { useRef, useState } from "react";
import styles from "./service-tokens.module.css";

type CopyState = "idle" | "copied" | "manual";

/**
 * TokenReveal shows a new service token once, with a Copy button and a first request to try it
 * with. Without a usable clipboard it selects the token for a manual copy instead.
 */
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
  const input = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<CopyState>("idle");
  const copyToken = async () => {
    try {
      if (!navigator.clipboard?.writeText) throw new Error("no clipboard");
      await navigator.clipboard.writeText(token);
      setCopy("copied");
    } catch {
      setCopy("manual");
      input.current?.focus();
      input.current?.select();
    }
  };
  const example = [
    `curl -s ${origin}/api/v1/decisions \\`,
    `  -H "Authorization: Bearer ${token}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '{"key": "rk_…customer key…", "operation": "read"}'`,
  ].join("\n");
  return (
    <section className="key-reveal" aria-label="New service token">
      <h2>Service token for {name}</h2>
      <p>
        Copy this token now and store it with the service’s secrets.{" "}
        <strong>It won’t be shown again</strong>: only its prefix is stored.
      </p>
      <div className="key-line">
        <input
          ref={input}
          className="secret"
          readOnly
          value={token}
          aria-label="Service token"
          spellCheck={false}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" className="btn primary" onClick={copyToken}>
          {copy === "copied" ? "Copied" : "Copy"}
        </button>
        <button type="button" className="btn" onClick={onDone}>
          Done
        </button>
      </div>
      <p className="muted small" role="status">
        {copy === "copied"
          ? "Copied to the clipboard."
          : copy === "manual"
            ? "The clipboard isn’t available here: the token is selected, press Ctrl+C (⌘C) to copy it."
            : ""}
      </p>
      <details className={styles.example}>
        <summary>Try it: one decision with curl</summary>
        <pre>{example}</pre>
      </details>
    </section>
  );
}
