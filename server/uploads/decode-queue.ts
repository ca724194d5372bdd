/** Said to the caller whose job did not finish within its time, queueing included. */
export class DecodeTimeout extends Error {
  constructor(timeoutMs: number) {
    super(`decode: not done within ${timeoutMs} ms`);
    this.name = "DecodeTimeout";
  }
}

export interface DecodeQueue {
  /**
   * Runs the job when a slot is free, first come first served. The job is told how many
   * milliseconds it has left (its time started when it was queued), so it can hand the
   * rest to its decoder. Rejects with DecodeTimeout once that time is up, whether the
   * job is still waiting (it then never runs) or still running.
   */
  run<T>(job: (remainingMs: number) => Promise<T>): Promise<T>;
  /** Jobs holding a slot, abandoned ones included until their work has really stopped. */
  readonly running: number;
  readonly waiting: number;
}

interface Waiting {
  start(): void;
  expire(): void;
  deadline: number;
}

/**
 * Decoding a photo takes a core and up to a few hundred MB: a handful at once would
 * starve the shop's requests. A job that runs out of time is answered at once, but
 * keeps its slot until its work returns (the decoder is told the same deadline), so
 * no more than `slots` decodes ever run at the same moment.
 */
export function decodeQueue(options: { slots: number; timeoutMs: number; now?: () => number }): DecodeQueue {
  const { slots, timeoutMs } = options;
  const now = options.now ?? Date.now;
  const queue: Waiting[] = [];
  let running = 0;

  const next = () => {
    while (running < slots && queue.length > 0) {
      const job = queue.shift() as Waiting;
      if (now() >= job.deadline) job.expire();
      else job.start();
    }
  };

  return {
    get running() {
      return running;
    },
    get waiting() {
      return queue.length;
    },
    run<T>(job: (remainingMs: number) => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const deadline = now() + timeoutMs;
        let settled = false;
        const settle = (finish: () => void) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          finish();
        };
        const waiting: Waiting = {
          deadline,
          expire: () => settle(() => reject(new DecodeTimeout(timeoutMs))),
          start: () => {
            running += 1;
            let work: Promise<T>;
            try {
              work = job(Math.max(1, deadline - now()));
            } catch (err) {
              work = Promise.reject(err);
            }
            work.then(
              (value) => settle(() => resolve(value)),
              (err: unknown) => settle(() => reject(err)),
            );
            // The slot frees when the work itself ends, not when its caller stopped waiting.
            work
              .catch(() => {})
              .finally(() => {
                running -= 1;
                next();
              });
          },
        };
        const timer = setTimeout(() => {
          const at = queue.indexOf(waiting);
          if (at >= 0) queue.splice(at, 1);
          waiting.expire();
        }, timeoutMs);
        timer.unref?.();
        queue.push(waiting);
        next();
      });
    },
  };
}
