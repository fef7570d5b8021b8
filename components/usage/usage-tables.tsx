import Link from "next/link";
import { formatCount, formatShare } from "@/components/charts/number-format";
import { classTitle } from "@/components/classes/class-words";
import {
  describeCalendar,
  describeNearQuota,
  describeReset,
} from "@/components/quotas/quota-words";
import { Empty } from "@/components/ui/states";
import type { NamedCustomerUsage, NearLimitView, PlanUsageView } from "@/lib/client/types";
import { countOf } from "@/lib/format";
import { formatDateMinute } from "@/lib/time-format";
import { decisionsOf } from "@/lib/vocabulary";
import styles from "./usage.module.css";
import {
  busiestPlansFirst,
  describeNearLimit,
  describeRefusals,
  describeUnmeasured,
  formatNearShare,
  nearShareTone,
} from "./usage-data";

const shareOf = (denied: number, all: number) => (all > 0 ? formatShare(denied / all) : "–");

/** PlansUsageTable lists each plan's customers, decisions and refusals over a range, busiest first. */
export function PlansUsageTable({
  plans,
  words,
}: {
  plans: readonly PlanUsageView[];
  words: string;
}) {
  if (plans.length === 0) return <Empty>No plans yet.</Empty>;
  return (
    <table>
      <caption className="sr-only">Allowed and denied per plan over {words}</caption>
      <thead>
        <tr>
          <th>Plan</th>
          <th className="right">Allowed</th>
          <th className="right">Denied</th>
        </tr>
      </thead>
      <tbody>
        {busiestPlansFirst(plans).map((p) => (
          <tr key={p.planId}>
            <td className={`${styles.cellWrap} ${styles.nameCell}`}>
              {p.slug === null ? p.name : <Link href={`/plans/${p.planId}`}>{p.name}</Link>}
              <div className="muted small">{countOf(p.customers, "customer")}</div>
            </td>
            <td className="right num">{formatCount(p.allowed)}</td>
            <td className={`right num${p.denied > 0 ? " bad-text" : ""}`}>
              {formatCount(p.denied)}
              <div className="muted small">
                {shareOf(p.denied, decisionsOf(p))}
                {p.refusedCustomers > 0
                  ? `, ${countOf(p.refusedCustomers, "customer")} refused`
                  : ""}
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** TopCustomersTable ranks customers by denials or by usage, each linking to its page. */
export function TopCustomersTable({
  rows,
  by,
  words,
}: {
  rows: readonly NamedCustomerUsage[];
  by: "denials" | "usage";
  words: string;
}) {
  if (rows.length === 0) {
    return (
      <Empty>
        {by === "denials" ? `Nobody was refused in ${words}.` : `No traffic in ${words}.`}
      </Empty>
    );
  }
  return (
    <table>
      <thead>
        <tr>
          <th>Customer</th>
          {by === "denials" ? (
            <>
              <th className="right">Denied</th>
              <th className="right">Share</th>
            </>
          ) : (
            <>
              <th className="right">Tokens</th>
              <th className="right">Requests</th>
            </>
          )}
        </tr>
      </thead>
      <tbody>
        {rows.map((c) => (
          <tr key={c.customerId}>
            <td className={`${styles.cellWrap} ${styles.nameCell}`}>
              <Link href={`/customers/${c.customerId}`}>{c.name}</Link>
              {c.planName ? <div className="muted small">{c.planName}</div> : null}
            </td>
            {by === "denials" ? (
              <>
                <td className="right num bad-text">{formatCount(c.denied)}</td>
                <td className="right num">
                  {c.deniedShare === null ? "–" : formatShare(c.deniedShare)}
                </td>
              </>
            ) : (
              <>
                <td className="right num">{formatCount(c.tokensTaken)}</td>
                <td className="right num">{formatCount(decisionsOf(c))}</td>
              </>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** nearKey tells apart one customer's findings for one class: by limit, quota, or refusals. */
function nearKey(n: NearLimitView): string {
  if (n.kind === "peak") return `${n.limit.count}/${n.limit.periodMs}`;
  if (n.kind === "quota") return `q/${n.quota.period}/${n.quota.timeZone ?? "UTC"}`;
  return "refused";
}

/**
 * NearLimitTable lists the customers who drained a limit's bucket to 80% of it or further, or
 * who were refused by their limits (at 100%), or who used 80% of a quota this period, nearest
 * first: the share, the operation and limit, how low the bucket went and when (local time, zone
 * named) or how much of the quota is used and when it resets, and how often they were refused.
 */
export function NearLimitTable({
  customers,
  words,
  resolutionMs,
}: {
  customers: readonly NearLimitView[];
  words: string;
  resolutionMs: number;
}) {
  if (customers.length === 0) {
    return <Empty>No customer drained 80% of a limit or was refused by one in {words}.</Empty>;
  }
  return (
    <table>
      <thead>
        <tr>
          <th>Customer</th>
          <th className="right">Peak</th>
          <th>Limit</th>
        </tr>
      </thead>
      <tbody>
        {customers.map((n) => (
          <tr key={`${n.customerId}|${n.operation}|${nearKey(n)}`} data-testid="near-limit-row">
            <td className={`${styles.cellWrap} ${styles.nameCell}`}>
              <Link href={`/customers/${n.customerId}`}>{n.name}</Link>
              <div className="muted small">
                {classTitle(n.operation)}
                {n.source === "override" ? ", override" : ""}
              </div>
            </td>
            <td className={`right ${styles.near} ${styles[nearShareTone(n.share)]}`}>
              {formatNearShare(n.share)}
            </td>
            {n.kind === "peak" ? (
              <td className={styles.cellWrap}>
                {describeNearLimit(n)}
                <div className="muted small">
                  at {formatDateMinute(n.lowestAtMs)}
                  {n.refused > 0 ? `; ${describeRefusals(n.refused)}` : ""}
                </div>
              </td>
            ) : n.kind === "quota" ? (
              <td className={styles.cellWrap}>
                {describeNearQuota({ ...n, count: n.quota.count, period: n.quota.period })}
                <div className="muted small">
                  Quota,{" "}
                  {describeCalendar({ ...n, ...n.quota, timeZone: n.quota.timeZone ?? "UTC" })};{" "}
                  {describeReset(n)}
                  {n.refused > 0 ? `; ${describeRefusals(n.refused)}` : ""}
                </div>
              </td>
            ) : (
              <td className={styles.cellWrap}>
                {describeRefusals(n.refused).replace(/^r/, "R")} by its limits
                <div className="muted small">{describeUnmeasured(n.unmeasured, resolutionMs)}</div>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
