"use client";

import { formatCount } from "@/components/charts/number-format";
import type { ListedServiceToken } from "@/lib/client/service-token-types";
import { formatDateTime } from "@/lib/time-format";
import { describeLastUse } from "./last-use";
import styles from "./service-tokens.module.css";

/**
 * ServiceTokenRow is one token: name, prefix, scopes, creation, last use, decision calls refused
 * for it in the last hour (revoked: 401; lacking the scope: 403), state, revoke.
 */
export function ServiceTokenRow({
  token,
  now,
  onRevoke,
}: {
  token: ListedServiceToken;
  now: number;
  onRevoke: (token: ListedServiceToken) => void;
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
      <td className="num" data-label="Refused, last hour">
        <span className="cell">
          {token.refusedLastHour > 0 ? (
            <span
              className="bad-text strong"
              title={
                revoked
                  ? "Decision calls with this revoked token, refused (401)"
                  : "Decision calls this token may not make, refused (403: it lacks the scope)"
              }
            >
              {formatCount(token.refusedLastHour)}
            </span>
          ) : (
            <span className="muted">0</span>
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
