/**
 * SerialQueue runs async work one at a time, in call order: each run starts once the one before
 * it settled, whether it succeeded or failed.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /** run queues `work` and settles as it does. */
  run<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }
}
