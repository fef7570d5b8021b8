"use client";

import Link from "next/link";
import { type DataColumn, dataColumns } from "@/components/ui/data-table";
import type { AuditEntry } from "@/lib/client/types";
import { formatDateTime } from "@/lib/time-format";
import { actionLabel, describeChange, entityOf } from "./audit-format";

function ChangeCell({ entry }: { entry: AuditEntry }) {
  const change = describeChange(entry);
  return (
    <div className="change">
      {change.kind === "note" ? (
        <span>{change.text}</span>
      ) : (
        <>
          {change.kind !== "changed" ? (
            <span className={`badge ${change.kind === "created" ? "ok" : "bad"}`}>
              {change.kind === "created" ? "Created" : "Deleted"}
            </span>
          ) : null}{" "}
          {change.changes.length === 0 ? (
            <span className="muted">No field changed</span>
          ) : (
            <ul className={change.kind === "changed" ? "diff" : "diff inline"}>
              {change.changes.map((c) => (
                <li key={c.field}>
                  <span className="diff-field">{c.field}</span>{" "}
                  {change.kind === "created" ? (
                    <ins>{c.after}</ins>
                  ) : change.kind === "deleted" ? (
                    <del>{c.before}</del>
                  ) : (
                    <>
                      <del>{c.before}</del> <span className="muted">→</span> <ins>{c.after}</ins>
                    </>
                  )}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      <details>
        <summary>JSON</summary>
        <div className="json-pair">
          <div>
            <div className="muted small">Before</div>
            <pre>{JSON.stringify(entry.before, null, 2)}</pre>
          </div>
          <div>
            <div className="muted small">After</div>
            <pre>{JSON.stringify(entry.after, null, 2)}</pre>
          </div>
        </div>
      </details>
    </div>
  );
}

const column = dataColumns<AuditEntry>();

/**
 * AUDIT_COLUMNS are the audit log's columns: when (with its zone), who, what (in words), which
 * customer or plan (by its name, linked while it exists) and the change.
 */
export const AUDIT_COLUMNS: DataColumn<AuditEntry>[] = [
  column.display({
    id: "when",
    header: "When",
    meta: { className: "nowrap" },
    cell: ({ row: { original: e } }) => (
      <time dateTime={new Date(e.at).toISOString()}>{formatDateTime(e.at)}</time>
    ),
  }),
  column.display({ id: "who", header: "Who", cell: ({ row: { original: e } }) => e.actor }),
  column.display({
    id: "what",
    header: "What",
    cell: ({ row: { original: e } }) => <span title={e.action}>{actionLabel(e.action)}</span>,
  }),
  column.display({
    id: "entity",
    header: "Customer or plan",
    meta: { label: "Of" },
    cell: ({ row: { original: e } }) => {
      const entity = entityOf(e);
      return (
        <>
          {entity.href ? <Link href={entity.href}>{entity.name}</Link> : entity.name}
          {entity.gone ? <span className="muted small"> (deleted)</span> : null}
        </>
      );
    },
  }),
  column.display({
    id: "change",
    header: "Change",
    cell: ({ row: { original: e } }) => <ChangeCell entry={e} />,
  }),
];
