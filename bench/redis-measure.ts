import type { Redis } from "ioredis";
import { threadTimes } from "./harness";
import type { Decide } from "./redis-setup";

/** interference sums, over all timed runs, the wall ns and the main thread's ns waiting for a CPU. */
export const interference = { wallNs: 0, waitingNs: 0 };

/**
 * Cost is the CPU a run's decisions took, per decision, in ns: this process's (user + system,
 * every thread) and redis-server's (INFO cpu). CPU time leaves out the time other processes
 * held the CPUs, so it moves less than wall time on a shared machine.
 */
export interface Cost {
  clientCpu: number;
  serverCpu: number;
}

/** Latency is one latency round: per-call ns percentiles and mean, the calls allowed, the cost. */
export interface Latency extends Cost {
  p50: number;
  p99: number;
  mean: number;
  allowed: number;
}

/**
 * Throughput is one throughput round: decisions per second, the calls allowed, the cost, and
 * the p50 and p99 of each call's time (ns) from its call to its awaited result.
 */
export interface Throughput extends Cost {
  perSecond: number;
  allowed: number;
  p50: number;
  p99: number;
}

/** serverCpuNs is redis-server's CPU time so far (user + system), in ns, from INFO cpu. */
async function serverCpuNs(admin: Redis): Promise<number> {
  const info = await admin.info("cpu");
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, "m").exec(info)?.[1]);
  return (field("used_cpu_user") + field("used_cpu_sys")) * 1e9;
}

/** clientCpuNs is this process's CPU time so far (user + system), in ns. */
function clientCpuNs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1e3;
}

/**
 * timed runs `body` (n decisions) between readings of the server's CPU, this process's CPU, the
 * main thread's scheduler times and the clock; it adds the run to the interference totals and
 * returns its wall ns and cost per decision. The INFO readings are outside the timed span.
 */
async function timed<T>(
  admin: Redis,
  n: number,
  body: () => Promise<T>,
): Promise<{ result: T; wallNs: number; cost: Cost }> {
  const server0 = await serverCpuNs(admin);
  const thread0 = threadTimes();
  const client0 = clientCpuNs();
  const start = process.hrtime.bigint();
  const result = await body();
  const wallNs = Number(process.hrtime.bigint() - start);
  const client1 = clientCpuNs();
  const thread1 = threadTimes();
  const server1 = await serverCpuNs(admin);
  interference.wallNs += wallNs;
  interference.waitingNs += thread1.waiting - thread0.waiting;
  return {
    result,
    wallNs,
    cost: { clientCpu: (client1 - client0) / n, serverCpu: (server1 - server0) / n },
  };
}

/** percentile is the nearest-rank percentile `p` (0 to 100) of sorted `values`. */
function percentile(sorted: Float64Array, p: number): number {
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

/**
 * measureLatency makes `n` sequential decisions on `key` (one in flight) and times each with
 * process.hrtime.bigint(), from the call to its awaited result.
 */
export async function measureLatency(
  admin: Redis,
  decide: Decide,
  key: string,
  n: number,
): Promise<Latency> {
  const samples = new Float64Array(n);
  const { result: allowed, cost } = await timed(admin, n, async () => {
    let allowed = 0;
    for (let i = 0; i < n; i++) {
      const t0 = process.hrtime.bigint();
      const ok = await decide(key);
      samples[i] = Number(process.hrtime.bigint() - t0);
      if (ok) allowed++;
    }
    return allowed;
  });
  let sum = 0;
  for (const s of samples) sum += s;
  samples.sort();
  return {
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    mean: sum / n,
    allowed,
    ...cost,
  };
}

/**
 * measureThroughput makes `n` decisions with `concurrency` of them in flight at all times (until
 * the last ones), on `keyAt(i)` for the i-th decision, and reports decisions per second.
 */
export async function measureThroughput(
  admin: Redis,
  decide: Decide,
  keyAt: (i: number) => string,
  n: number,
  concurrency: number,
): Promise<Throughput> {
  let next = 0;
  let allowed = 0;
  const samples = new Float64Array(n);
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const t0 = process.hrtime.bigint();
      const ok = await decide(keyAt(i));
      samples[i] = Number(process.hrtime.bigint() - t0);
      if (ok) allowed++;
    }
  };
  const { wallNs, cost } = await timed(admin, n, () =>
    Promise.all(Array.from({ length: concurrency }, worker)),
  );
  samples.sort();
  return {
    perSecond: (n * 1e9) / wallNs,
    allowed,
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    ...cost,
  };
}
