import { readdirSync, readFileSync } from "node:fs";

/** TICK_NS is one clock tick of /proc's CPU times (USER_HZ, 100 on Linux), in ns. */
const TICK_NS = 10_000_000;

/** ProcessCpu is one process's name and the CPU it has used, in ns. */
interface ProcessCpu {
  name: string;
  cpuNs: number;
}

/**
 * MachineSample is what the machine's CPUs had done at one moment, from /proc (Linux): the ns
 * all CPUs spent busy and stolen by the hypervisor, and each live process's CPU so far.
 */
export interface MachineSample {
  busyNs: number;
  stealNs: number;
  processes: Map<number, ProcessCpu>;
}

/**
 * readProcess reads a process's name and CPU (user + system). Its reaped children's are left
 * out: a child's whole life lands on its parent when it exits, not when it ran.
 */
function readProcess(pid: number): ProcessCpu | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = stat.lastIndexOf(")");
    const name = stat.slice(stat.indexOf("(") + 1, close);
    // After the name: state, ppid, ... utime is the 12th field, then stime.
    const fields = stat.slice(close + 2).split(" ");
    const ticks = Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
    return { name, cpuNs: ticks * TICK_NS };
  } catch {
    return undefined; // gone, or not readable
  }
}

/** sampleMachine reads /proc now; undefined where there is none (not Linux). */
export function sampleMachine(): MachineSample | undefined {
  try {
    const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0]?.split(/\s+/).slice(1);
    if (!cpu) return undefined;
    // user nice system idle iowait irq softirq steal ...
    const [user, nice, system, , , irq, softirq, steal] = cpu.map(Number);
    const busyNs =
      ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0)) * TICK_NS;
    const processes = new Map<number, ProcessCpu>();
    for (const entry of readdirSync("/proc")) {
      const pid = Number(entry);
      if (!Number.isInteger(pid)) continue;
      const process = readProcess(pid);
      if (process) processes.set(pid, process);
    }
    return { busyNs, stealNs: (steal ?? 0) * TICK_NS, processes };
  } catch {
    return undefined;
  }
}

/** OtherLoad is the CPU others used between two samples, in cores (1 = one core all along). */
export interface OtherLoad {
  /** others is the CPU every process but the run's own used, in cores. */
  others: number;
  /** steal is the CPU time the hypervisor gave to other machines, in cores. */
  steal: number;
  /** top lists the processes (not the run's own) that used the most, in cores, most first. */
  top: { pid: number; name: string; cores: number }[];
}

/**
 * otherLoad is what shared the machine between `from` and `to` (`wallNs` apart): every CPU's
 * busy time less that of the run's own processes (`own` pids: this one and redis-server),
 * the hypervisor's steal, and the five processes that used the most.
 */
export function otherLoad(
  from: MachineSample,
  to: MachineSample,
  wallNs: number,
  own: readonly number[],
): OtherLoad {
  let ownNs = 0;
  const top: OtherLoad["top"] = [];
  for (const [pid, now] of to.processes) {
    const before = from.processes.get(pid);
    const usedNs = now.cpuNs - (before?.cpuNs ?? now.cpuNs);
    if (own.includes(pid)) ownNs += usedNs;
    else if (usedNs > 0) top.push({ pid, name: now.name, cores: usedNs / wallNs });
  }
  top.sort((a, b) => b.cores - a.cores);
  return {
    others: Math.max(0, to.busyNs - from.busyNs - ownNs) / wallNs,
    steal: (to.stealNs - from.stealNs) / wallNs,
    top: top.slice(0, 5),
  };
}
