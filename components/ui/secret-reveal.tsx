"use client";

import { type ReactNode, useRef, useState } from "react";

type CopyState = "idle" | "copied" | "manual";

/**
 * SecretReveal shows a new secret (an API key, a service token) once, with Copy and Done. Without
 * a usable clipboard (an insecure origin, a denied permission) it selects the secret for a
 * manual copy instead. `intro` says what to do with it; `children` follow the copy status.
 */
export function SecretReveal({
  label,
  title,
  secret,
  secretName,
  intro,
  onDone,
  children,
}: {
  /** label names the section for assistive technology ("New API key"). */
  label: string;
  title: string;
  secret: string;
  /** secretName names the secret in the field's label and the status line ("API key"). */
  secretName: string;
  intro: ReactNode;
  onDone: () => void;
  children?: ReactNode;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<CopyState>("idle");
  const copySecret = async () => {
    try {
      if (!navigator.clipboard?.writeText) throw new Error("no clipboard");
      await navigator.clipboard.writeText(secret);
      setCopy("copied");
    } catch {
      setCopy("manual");
      input.current?.focus();
      input.current?.select();
    }
  };
  const lower = secretName.charAt(0).toLowerCase() + secretName.slice(1);
  return (
    <section className="key-reveal" aria-label={label}>
      <h2>{title}</h2>
      <p>{intro}</p>
      <div className="key-line">
        <input
          ref={input}
          className="secret"
          readOnly
          value={secret}
          aria-label={secretName}
          spellCheck={false}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" className="btn primary" onClick={copySecret}>
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
            ? `The clipboard isn’t available here: the ${lower} is selected, press Ctrl+C (⌘C) to copy it.`
            : ""}
      </p>
      {children}
    </section>
  );
}
