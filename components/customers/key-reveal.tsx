"use client";

import Link from "next/link";
import { SecretReveal } from "@/components/ui/secret-reveal";

/** KeyReveal shows a new API key once, with a Copy button and a link to its inspector. */
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
  return (
    <SecretReveal
      label="New API key"
      title={title}
      secret={apiKey}
      secretName="API key"
      onDone={onDone}
      intro={
        <>
          Copy this key now and give it to the customer. <strong>It won’t be shown again</strong>:
          Ratekeeper keeps only a hash of it, which checks a key but cannot give it back, and its
          first characters (the prefix) so you can tell keys apart.
        </>
      }
    >
      {inspectorHref ? (
        <p className="small">
          <Link href={inspectorHref}>Open its key inspector</Link>
        </p>
      ) : null}
    </SecretReveal>
  );
}
