import Link from "next/link";
import { summarize } from "@/components/audit/audit-diff";
import type { AuditEntry } from "@/lib/client/types";

function nameOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const name = (value as { name?: unknown }).name;
  return typeof name === "string" ? name : undefined;
}

function EntityCell({ entry }: { entry: AuditEntry }) {
  const name = nameOf(entry.after) ?? nameOf(entry.before);
  const label = `${entry.entityType}${entry.entityId ? ` #${entry.entityId}` : ""}`;
  const href =
    entry.entityId && entry.after !== null
      ? entry.entityType === "plan"
        ? `/plans/${entry.entityId}`
        : entry.entityType === "customer"
          ? `/customers/${entry.entityId}`
          : undefined
      : undefined;
  return (
    <>
      {href ? <Link href={href}>{name ?? label}</Link> : <span>{name ?? label}</span>}
      {name ? <div className="muted small">{label}</div> : null}
    </>
  );
}

/** AuditRow is one change: when (local time), who, what, and a compact diff with the raw JSON. */
export function AuditRow({ entry }: { entry: AuditEntry }) {
  const summary = summarize(entry.before, entry.after);
  const when = new Date(entry.at);
  return (
    <tr>
      <td className="nowrap">
        <time dateTime={when.toISOString()}>{when.toLocaleString()}</time>
      </td>
      <td>{entry.actor}</td>
      <td>
        <code className="action">{entry.action}</code>
      </td>
      <td>
        <EntityCell entry={entry} />
      </td>
      <td className="change">
        {summary.kind !== "changed" ? (
          <span className={`badge ${summary.kind === "created" ? "ok" : "bad"}`}>
            {summary.kind === "created" ? "Created" : "Deleted"}
          </span>
        ) : null}
        {summary.changes.length === 0 ? (
          <span className="muted">No field changed</span>
        ) : (
          <ul className={summary.kind === "changed" ? "diff" : "diff inline"}>
            {summary.changes.map((c) => (
              <li key={c.field}>
                <span className="diff-field">{c.field}</span>{" "}
                {summary.kind === "created" ? (
                  <ins>{c.after}</ins>
                ) : summary.kind === "deleted" ? (
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
      </td>
    </tr>
  );
}
