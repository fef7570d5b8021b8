"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { classTitle, orderedClasses } from "@/components/classes/class-words";
import { QUOTA_PERIOD_WORDS } from "@/components/ui/limit-words";
import { ErrorNote } from "@/components/ui/states";
import { api } from "@/lib/client/api";
import type { QuotaView } from "@/lib/schemas/inspect-answer.schema";
import type { QuotaGrantsAnswer, QuotaGrantView } from "@/lib/schemas/quota-grant-answer.schema";
import { formatDateMinute } from "@/lib/time-format";
import { GrantDialog } from "./grant-dialog";
import { grantPath, grantsKey, grantsOfPeriod } from "./grant-draft";
import {
  describeCalendar,
  describeRemaining,
  describeReset,
  describeUsed,
  describeUsedUp,
  quotaShare,
  quotaTone,
} from "./quota-words";
import styles from "./quotas.module.css";

/** quotaKey tells one quota of a customer from the others: its class, period and zone. */
function quotaKey(q: QuotaView): string {
  return `${q.operation}|${q.period}|${q.timeZone}`;
}

/**
 * QuotasCard lists each quota of each class of a customer as it stands (the inspect answer's
 * `quotas`, peeked): used of its count and what was granted, what is left, a bar, when it resets
 * (in the operator's time zone) and, for months, the billing day; a used-up quota says that
 * requests are refused until then. Each quota offers "Grant extra" for its current period and
 * lists this period's grants.
 */
export function QuotasCard({
  customerId,
  quotas,
}: {
  customerId: number;
  quotas: readonly QuotaView[];
}) {
  const grants = useQuery({
    queryKey: grantsKey(customerId),
    queryFn: () => api<QuotaGrantsAnswer>(grantPath(customerId)),
    enabled: quotas.length > 0,
  });
  const [granting, setGranting] = useState<QuotaView | undefined>();
  const order = orderedClasses(quotas.map((q) => q.operation));
  const sorted = [...quotas].sort(
    (a, b) => order.indexOf(a.operation) - order.indexOf(b.operation),
  );
  return (
    <section className="card" aria-labelledby="quotas-heading">
      <h2 id="quotas-heading">Quotas</h2>
      {sorted.length === 0 ? (
        <p className="muted" data-testid="quotas-none">
          No quotas: this customer&rsquo;s requests are not counted per day, week or month.
        </p>
      ) : (
        <ul className={styles.list}>
          {sorted.map((q) => (
            <QuotaItem
              key={quotaKey(q)}
              quota={q}
              grants={grantsOfPeriod(grants.data?.grants ?? [], q)}
              onGrant={() => setGranting(q)}
            />
          ))}
        </ul>
      )}
      <ErrorNote error={grants.error} />
      {granting ? (
        <GrantDialog
          customerId={customerId}
          quota={granting}
          onClose={() => setGranting(undefined)}
        />
      ) : null}
    </section>
  );
}

function QuotaItem({
  quota: q,
  grants,
  onGrant,
}: {
  quota: QuotaView;
  grants: readonly QuotaGrantView[];
  onGrant: () => void;
}) {
  const tone = quotaTone(q);
  const usedUp = describeUsedUp(q, q.dryRun);
  const percent = Math.round(quotaShare(q) * 100);
  const name = `${classTitle(q.operation)} per ${QUOTA_PERIOD_WORDS[q.period]}`;
  return (
    <li className={styles.quota} data-testid={`quota-${q.operation}-${q.period}`}>
      <div className={styles.head}>
        <span>
          <span className={styles.title}>{name}</span>
          <span className={styles.badges}>
            {q.source === "override" ? <span className="badge">override</span> : null}
            {q.dryRun ? <span className="badge">dry run</span> : null}
            {usedUp ? <span className="badge bad">used up</span> : null}
          </span>
        </span>
        <button type="button" className="btn small" onClick={onGrant}>
          Grant extra
        </button>
      </div>
      <p className={styles.used}>{describeUsed(q)}</p>
      <div
        className={styles.bar}
        role="progressbar"
        aria-label={`${name}: used`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}% used`}
      >
        <div className={`${styles.fill} ${styles[tone] ?? ""}`} style={{ width: `${percent}%` }} />
      </div>
      <p className={`${styles.meta} muted small`}>
        {describeRemaining(q)}, {describeReset(q)}; {describeCalendar(q)}
      </p>
      {usedUp ? (
        <p className={styles.usedUp} role="status">
          {usedUp}
        </p>
      ) : null}
      {grants.length > 0 ? (
        <ul className={styles.grants} aria-label={`Grants for ${name.toLowerCase()} this period`}>
          {grants.map((g) => (
            <li key={g.id}>
              +{g.extra.toLocaleString("en-US")} granted by {g.createdBy} at{" "}
              {formatDateMinute(g.createdAt)}
              {g.note ? <span className="muted">: {g.note}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}
