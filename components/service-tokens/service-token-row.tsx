"use client";

import type { ServiceTokenView } from "@/lib/client/service-token-types";
import { formatDateTime } from "@/lib/format";
import { describeLastUse } from "./last-use";
import styles from "./service-tokens.module.css";

/** ServiceTokenRow is one token: name, prefix, scopes, creation, last use, state, revoke. */
export function ServiceTokenRow({
  token,
  now,
  onRevoke,
}: {
  token: ServiceTokenView;
  now: number;
  onRevoke: (token: ServiceTokenView) => void;
}) {
  const revoked = token.revokedAt !== null;
  return (
    <tr className={revoked ? "dimmed" : undefined}>
      <td className="strong" data-label="Name">
        <span className="cell">{token.name}</span>
      </td>
      <td data-label="Token">
        <span className="cell">
          <code title="Token prefix">{token.prefix}…</code>
        </span>
      </td>
      <td data-label="Scopes">
        <span className={`cell ${styles.scopeList}`}>
          {token.scopes.map((scope) => (
            <span key={scope} className="badge">
              {scope}
            </span>
          ))}
        </span>
      </td>
      <td className="nowrap" data-label="Created">
        <span className="cell">
          <span>
            <time dateTime={new Date(token.createdAt).toISOString()}>
              {formatDateTime(token.createdAt)}
            </time>
            <span className="muted small"> by {token.createdBy}</span>
          </span>
        </span>
      </td>
      <td className="nowrap" data-label="Last used">
        <span className="cell">
          {token.lastUsedAt === null ? (
            <span className="muted">Never</span>
          ) : (
            <time
              dateTime={new Date(token.lastUsedAt).toISOString()}
              title={formatDateTime(token.lastUsedAt)}
            >
              {describeLastUse(token.lastUsedAt, now)}
            </time>
          )}
        </span>
      </td>
      <td data-label="State">
        <span className="cell">
          {revoked ? (
            <span
              className="badge bad"
              title={`Revoked ${formatDateTime(token.revokedAt as number)}`}
            >
              Revoked
            </span>
          ) : (
            <span className="badge ok">Active</span>
          )}
        </span>
      </td>
      <td className="right nowrap actions">
        {revoked ? null : (
          <span className="cell">
            <button
              type="button"
              className="btn small ghost danger-text"
              aria-label={`Revoke ${token.name}`}
              onClick={() => onRevoke(token)}
            >
              Revoke
            </button>
          </span>
        )}
      </td>
    </tr>
  );
}
