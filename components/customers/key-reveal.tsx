"use client";

import Link from "next/link";
import { useRef, useState } from "react";

type CopyState = "idle" | "copied" | "manual";

/**
 * KeyReveal shows a new API key once, with a Copy button. Without a usable clipboard (an
 * insecure origin, a denied permission) it selects the key for a manual copy instead.
 */
export function KeyReveal({
  title,
  apiKey,
  inspectorHref,
  onDone,
}: {
  title: string;
  apiKey: string;
  /** inspectorHref links to the customer's inspector, if given. */
  inspectorHref?: string;
  onDone: () => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<CopyState>("idle");
  const selectKey = () => {
    input.current?.focus();
    input.current?.select();
  };
  const copyKey = async () => {
    try {
      if (!navigator.clipboard?.writeText) throw new Error("no clipboard");
      await navigator.clipboard.writeText(apiKey);
      setCopy("copied");
    } catch {
      setCopy("manual");
      selectKey();
    }
  };
  return (
    <section className="key-reveal" aria-label="New API key">
      <h2>{title}</h2>
      <p>
        Copy this key now and give it to the customer. <strong>It won’t be shown again</strong>:
        Ratekeeper keeps only a hash of it, which checks a key but cannot give it back, and its
        first characters (the prefix) so you can tell keys apart.
      </p>
      <div className="key-line">
        <input
          ref={input}
          className="secret"
          readOnly
          value={apiKey}
          aria-label="API key"
          spellCheck={false}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" className="btn primary" onClick={copyKey}>
          {copy === "copied" ? "Copied" : "Copy"}
        </button>
        <button type="button" className="btn" onClick={onDone}>
          Done
        </button>
      </div>
      {inspectorHref ? (
        <p className="small">
          <Link href={inspectorHref}>Open its key inspector</Link>
        </p>
      ) : null}
      <p className="muted small" role="status">
        {copy === "copied"
          ? "Copied to the clipboard."
          : copy === "manual"
            ? "The clipboard isn’t available here: the key is selected, press Ctrl+C (⌘C) to copy it."
            : ""}
      </p>
    </section>
  );
}
