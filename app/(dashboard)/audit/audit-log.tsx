"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { Empty, ErrorNote, Loading, PageHeader } from "@/components/ui/states";
import { api } from "@/lib/client/api";
import type { AuditResponse } from "@/lib/client/types";
import { AuditRow } from "./audit-row";

const PAGE_SIZE = 50;

/** AuditLog lists operator changes, newest first, a page at a time. */
export function AuditLog() {
  const audit = useInfiniteQuery({
    queryKey: ["audit"],
    queryFn: ({ pageParam }) =>
      api<AuditResponse>(
        `/audit?limit=${PAGE_SIZE}${pageParam === null ? "" : `&before=${pageParam}`}`,
      ),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const entries = audit.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change an operator made to plans, customers and overrides, newest first."
      />
      {audit.isPending ? (
        <Loading label="Loading the audit log…" />
      ) : entries.length === 0 && !audit.error ? (
        <Empty>No changes yet. Edits to plans and customers appear here.</Empty>
      ) : entries.length > 0 ? (
        <div className="card flush">
          <table className="audit-table">
            <thead>
              <tr>
                <th>When</th>
                <th>Who</th>
                <th>Action</th>
                <th>Entity</th>
                <th>Change</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <AuditRow key={entry.id} entry={entry} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <ErrorNote error={audit.error} />
      {audit.hasNextPage ? (
        <div className="load-more">
          <button
            type="button"
            className="btn"
            disabled={audit.isFetchingNextPage}
            onClick={() => audit.fetchNextPage()}
          >
            {audit.isFetchingNextPage ? "Loading…" : "Load more"}
          </button>
        </div>
      ) : entries.length > 0 ? (
        <p className="muted center small">That’s the beginning of the log.</p>
      ) : null}
    </>
  );
}
