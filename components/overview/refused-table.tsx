import Link from "next/link";
import { formatCount } from "@/components/charts/number-format";
import { Empty } from "@/components/ui/states";
import type { TrafficResponse } from "@/lib/client/types";
import { formatShare } from "./traffic-chart-data";

/** REFUSED_ROWS is how many customers the "refused most" table lists. */
export const REFUSED_ROWS = 10;

/**
 * RefusedTable lists the customers with the most denied requests (the server sorts them) over
 * the window `words` names ("the last 2 minutes").
 */
export function RefusedTable({
  totals,
  words,
}: {
  totals: TrafficResponse["totals"];
  words: string;
}) {
  const refused = totals.filter((t) => t.denied > 0).slice(0, REFUSED_ROWS);
  if (refused.length === 0) return <Empty>No requests were refused in {words}.</Empty>;
  return (
    <table>
      <thead>
        <tr>
          <th>Customer</th>
          <th className="right">Denied</th>
          <th className="right">Allowed</th>
          <th className="right">Denied share</th>
        </tr>
      </thead>
      <tbody>
        {refused.map((t) => (
          <tr key={t.customerId}>
            <td>
              <Link href={`/customers/${t.customerId}`}>{t.name}</Link>
            </td>
            <td className="right num bad-text">{formatCount(t.denied)}</td>
            <td className="right num">{formatCount(t.allowed)}</td>
            <td className="right num">{formatShare(t.denied / (t.denied + t.allowed))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
