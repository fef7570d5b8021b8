"use client";

import { countOf } from "@/lib/format";

/**
 * CursorPager moves through a list a page at a time: "Newer"/"Previous" and "Older"/"Next"
 * follow the server's cursors, and a line says how many rows match in all.
 */
export function CursorPager({
  label,
  total,
  shown,
  noun,
  prev,
  next,
  prevLabel = "Previous",
  nextLabel = "Next",
  onPage,
  busy,
}: {
  label: string;
  total: number;
  shown: number;
  noun: [string, string];
  prev: string | null;
  next: string | null;
  prevLabel?: string;
  nextLabel?: string;
  onPage: (cursor: { after?: string; before?: string }) => void;
  busy?: boolean;
}) {
  const [one, many] = noun;
  return (
    <nav className="pager" aria-label={label}>
      <p className="muted small" aria-live="polite">
        {total === 0
          ? `No ${many}`
          : `${shown.toLocaleString("en-US")} shown of ${countOf(total, one, many)}`}
      </p>
      <div className="row">
        <button
          type="button"
          className="btn small"
          disabled={!prev || busy}
          onClick={() => prev && onPage({ before: prev })}
        >
          ← {prevLabel}
        </button>
        <button
          type="button"
          className="btn small"
          disabled={!next || busy}
          onClick={() => next && onPage({ after: next })}
        >
          {nextLabel} →
        </button>
      </div>
    </nav>
  );
}
