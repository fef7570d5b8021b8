import type { ReactNode } from "react";

/**
 * HeadedCard is a card that is a named region: its heading (`title`, with the element id
 * `headingId` that names the region) and a muted `note` beside it, saying what it covers.
 */
export function HeadedCard({
  headingId,
  title,
  note,
  children,
}: {
  headingId: string;
  title: ReactNode;
  note: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="card" aria-labelledby={headingId}>
      <div className="card-header">
        <h2 id={headingId}>{title}</h2>
        <span className="muted">{note}</span>
      </div>
      {children}
    </section>
  );
}
