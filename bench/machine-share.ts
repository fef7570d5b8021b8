import os from "node:os";
import { type MachineSample, otherLoad, sampleMachine } from "./machine-load";

/**
 * Sharing is what shared the machine during one run, in cores (1 = one core all along, out of
 * `cores`): the measured server, this process (the load generator: autocannon runs here, on the
 * same cores), every other process (the five that used the most named), and the hypervisor's
 * steal. NaN where /proc cannot be read.
 */
export interface Sharing {
  cores: number;
  server: number;
  loadGenerator: number;
  others: number;
  steal: number;
  top: { name: string; cores: number }[];
}

/** Shared is a run's Sharing, with the CPU time (ms) the server and the load generator used. */
export interface Shared {
  sharing: Sharing;
  serverMs: number;
  loadGeneratorMs: number;
}

/** ShareMeter measures one run's Sharing, from /proc (bench/machine-load.ts): `start`, then `stop`. */
export class ShareMeter {
  private from: MachineSample | undefined;
  private startedNs = 0n;

  /** `pid` is the measured server's; `helpers` serve it (the gateway's upstream), none of them "others". */
  constructor(
    private readonly pid: number,
    private readonly helpers: readonly number[] = [],
  ) {}

  /** start samples the machine before a run. */
  start(): void {
    this.startedNs = process.hrtime.bigint();
    this.from = sampleMachine();
  }

  /** stop samples it after the run and returns what shared it since `start`. */
  stop(): Shared {
    const to = sampleMachine();
    const wallNs = Number(process.hrtime.bigint() - this.startedNs);
    const usedNs = (pid: number) =>
      (to?.processes.get(pid)?.cpuNs ?? Number.NaN) -
      (this.from?.processes.get(pid)?.cpuNs ?? Number.NaN);
    const serverNs = usedNs(this.pid);
    const selfNs = usedNs(process.pid);
    const others =
      this.from && to
        ? otherLoad(this.from, to, wallNs, [this.pid, process.pid, ...this.helpers])
        : undefined;
    return {
      sharing: {
        cores: os.cpus().length,
        server: serverNs / wallNs,
        loadGenerator: selfNs / wallNs,
        others: others?.others ?? Number.NaN,
        steal: others?.steal ?? Number.NaN,
        top: others?.top ?? [],
      },
      serverMs: serverNs / 1e6,
      loadGeneratorMs: selfNs / 1e6,
    };
  }
}
