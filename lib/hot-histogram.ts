import type { Registry } from "prom-client";

/** Series is one label value's observations: a count per bucket (not cumulative), sum, count. */
interface Series {
  buckets: Float64Array;
  sum: number;
  count: number;
}

/**
 * HotHistogram is a Prometheus histogram with one label, for a path where every microsecond
 * counts: an observation is a short scan of the bounds and three additions on typed arrays,
 * with no label hashing (prom-client's Histogram hashes its labels on every observation); the
 * cumulative buckets are summed when a scrape reads them. Its exposition is prom-client's own
 * (`_bucket{le}`, `_sum`, `_count`), registered in the app's registry.
 */
export class HotHistogram {
  private readonly series = new Map<string, Series>();

  /** `bounds` are the buckets' upper bounds, ascending; +Inf is added. */
  constructor(
    registry: Registry,
    private readonly name: string,
    private readonly help: string,
    private readonly label: string,
    private readonly bounds: readonly number[],
  ) {
    registry.registerMetric({
      name,
      help,
      type: "histogram",
      aggregator: "sum",
      get: async () => this.snapshot(),
      // The registry only reads the fields above and calls get(); nothing else is used.
    } as unknown as Parameters<Registry["registerMetric"]>[0]);
  }

  /** observe counts one value (seconds) under the label's value `labelValue`. */
  observe(labelValue: string, value: number): void {
    let s = this.series.get(labelValue);
    if (!s) {
      s = { buckets: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
      this.series.set(labelValue, s);
    }
    let i = 0;
    while (i < this.bounds.length && value > (this.bounds[i] as number)) i++;
    s.buckets[i] = (s.buckets[i] as number) + 1;
    s.sum += value;
    s.count++;
  }

  private snapshot() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] =
      [];
    for (const [labelValue, s] of this.series) {
      let cumulative = 0;
      for (let i = 0; i <= this.bounds.length; i++) {
        cumulative += s.buckets[i] as number;
        values.push({
          metricName: `${this.name}_bucket`,
          labels: {
            le: i < this.bounds.length ? (this.bounds[i] as number) : "+Inf",
            [this.label]: labelValue,
          },
          value: cumulative,
        });
      }
      values.push({
        metricName: `${this.name}_sum`,
        labels: { [this.label]: labelValue },
        value: s.sum,
      });
      values.push({
        metricName: `${this.name}_count`,
        labels: { [this.label]: labelValue },
        value: s.count,
      });
    }
    return { name: this.name, help: this.help, type: "histogram", aggregator: "sum", values };
  }
}
