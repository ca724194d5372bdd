import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DecodeTimeout, decodeQueue } from "../../server/uploads/decode-queue.ts";

/** A decode the test finishes by hand. */
function manualJob<T>() {
  let finish!: (value: T) => void;
  let fail!: (err: unknown) => void;
  const work = new Promise<T>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { work, finish, fail };
}

/** Lets promise callbacks (the queue's bookkeeping) run. */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the decode queue", () => {
  it("never runs more than two decodes at once when many photos arrive together", async () => {
    const queue = decodeQueue({ slots: 2, timeoutMs: 10_000 });
    const jobs = Array.from({ length: 6 }, () => manualJob<string>());
    let running = 0;
    let most = 0;
    const results = jobs.map((job, i) =>
      queue
        .run(async () => {
          running += 1;
          most = Math.max(most, running);
          try {
            return await job.work;
          } finally {
            running -= 1;
          }
        })
        .then((value) => [i, value]),
    );
    await settle();
    expect(queue.running).toBe(2);
    expect(queue.waiting).toBe(4);
    // Finished out of order, one at a time: each freed slot goes to the next in line.
    for (const i of [1, 0, 3, 2, 5, 4]) {
      jobs[i]?.finish(`photo ${i}`);
      await settle();
      expect(queue.running).toBeLessThanOrEqual(2);
    }
    expect(await Promise.all(results)).toEqual(jobs.map((_, i) => [i, `photo ${i}`]));
    expect(most).toBe(2);
    expect(queue.running).toBe(0);
    expect(queue.waiting).toBe(0);
  });

  it("starts waiting decodes in the order they came in", async () => {
    const queue = decodeQueue({ slots: 2, timeoutMs: 10_000 });
    const started: number[] = [];
    const jobs = Array.from({ length: 5 }, () => manualJob<void>());
    const done = jobs.map((job, i) =>
      queue.run(() => {
        started.push(i);
        return job.work;
      }),
    );
    await settle();
    expect(started).toEqual([0, 1]);
    jobs[1]?.finish();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    jobs[0]?.finish();
    await settle();
    expect(started).toEqual([0, 1, 2, 3]);
    jobs[3]?.finish();
    await settle();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    for (const job of jobs) job.finish();
    await Promise.all(done);
  });

  it("gives the slot of a decode that failed to the next photo, and tells the caller why", async () => {
    const queue = decodeQueue({ slots: 2, timeoutMs: 10_000 });
    const broken = manualJob<string>();
    const slow = manualJob<string>();
    const failing = queue.run(() => broken.work);
    const other = queue.run(() => slow.work);
    let thirdStarted = false;
    const third = queue.run(async () => {
      thirdStarted = true;
      return "third";
    });
    await settle();
    expect(thirdStarted).toBe(false);
    broken.fail(new Error("VipsJpeg: premature end of JPEG file"));
    await expect(failing).rejects.toThrow("premature end");
    await settle();
    expect(thirdStarted).toBe(true);
    await expect(third).resolves.toBe("third");
    slow.finish("other");
    await expect(other).resolves.toBe("other");
  });

  it("frees the slot of a decode that throws before it even returns a promise", async () => {
    const queue = decodeQueue({ slots: 1, timeoutMs: 10_000 });
    const thrown = queue.run((): Promise<string> => {
      throw new Error("no decoder");
    });
    await expect(thrown).rejects.toThrow("no decoder");
    await expect(queue.run(async () => "next")).resolves.toBe("next");
  });

  it("answers a decode that runs past its time at once, and keeps its slot until the work really stops", async () => {
    const queue = decodeQueue({ slots: 1, timeoutMs: 1000 });
    const bomb = manualJob<string>();
    let given = 0;
    const abandoned = queue.run((remainingMs) => {
      given = remainingMs;
      return bomb.work;
    });
    const answer = expect(abandoned).rejects.toBeInstanceOf(DecodeTimeout);
    await vi.advanceTimersByTimeAsync(600);
    expect(given).toBe(1000);
    let nextGiven = 0;
    const next = queue.run(async (remainingMs) => {
      nextGiven = remainingMs;
      return "next";
    });
    await vi.advanceTimersByTimeAsync(400);
    await answer;
    // Its decoder is still busy (libvips stops at its own deadline): the slot stays taken.
    expect(queue.running).toBe(1);
    expect(queue.waiting).toBe(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(nextGiven).toBe(0);
    // A late result changes nothing for the caller who already had the answer.
    bomb.finish("too late");
    await expect(next).resolves.toBe("next");
    expect(nextGiven).toBe(400);
    expect(queue.running).toBe(0);
  });

  it("counts the time a photo waited in line, and gives its decoder only what is left", async () => {
    const queue = decodeQueue({ slots: 1, timeoutMs: 1000 });
    const first = manualJob<string>();
    const firstDone = queue.run(() => first.work);
    let given = 0;
    const second = queue.run(async (remainingMs) => {
      given = remainingMs;
      return "second";
    });
    await vi.advanceTimersByTimeAsync(300);
    first.finish("first");
    await expect(firstDone).resolves.toBe("first");
    await expect(second).resolves.toBe("second");
    expect(given).toBe(700);
  });

  it("drops a photo whose time ran out while it waited, without running it", async () => {
    const queue = decodeQueue({ slots: 1, timeoutMs: 500 });
    const hog = manualJob<string>();
    const hogging = queue.run(() => hog.work);
    const hogAnswer = expect(hogging).rejects.toBeInstanceOf(DecodeTimeout);
    const ran: string[] = [];
    const late = queue.run(async () => {
      ran.push("late");
      return "late";
    });
    const lateAnswer = expect(late).rejects.toBeInstanceOf(DecodeTimeout);
    await vi.advanceTimersByTimeAsync(400);
    // Joined the line later: its own time has not run out when the slot frees.
    const fresh = queue.run(async () => {
      ran.push("fresh");
      return "fresh";
    });
    await vi.advanceTimersByTimeAsync(100);
    await lateAnswer;
    expect(queue.waiting).toBe(1);
    hog.finish("hog");
    await hogAnswer;
    await expect(fresh).resolves.toBe("fresh");
    expect(ran).toEqual(["fresh"]);
  });
});
