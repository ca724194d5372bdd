import { describe, expect, it } from "vitest";
import { UploadQueue } from "../../../islands/photo-upload/upload-queue.ts";

describe("the uploader's queue", () => {
  it("sends the first file alone, then two at a time", () => {
    const queue = new UploadQueue<string>(2);
    queue.add(["a", "b", "c", "d"]);
    expect(queue.startable().map((i) => i.file)).toEqual(["a"]);
    expect(queue.startable()).toEqual([]);
    queue.settle(1, "done");
    expect(queue.startable().map((i) => i.file)).toEqual(["b", "c"]);
    queue.settle(2, "failed");
    expect(queue.startable().map((i) => i.file)).toEqual(["d"]);
  });

  it("does not count a cancelled first file as an answer", () => {
    const queue = new UploadQueue<string>(2);
    queue.add(["a", "b", "c"]);
    queue.startable();
    queue.settle(1, "cancelled");
    expect(queue.startable().map((i) => i.file)).toEqual(["b"]);
  });

  it("keeps progress between 0 and 100 and is busy while anything waits or travels", () => {
    const queue = new UploadQueue<string>(2);
    const [a] = queue.add(["a"]);
    expect(queue.busy()).toBe(true);
    queue.startable();
    queue.progress(a?.id ?? 0, 50, 200);
    expect(queue.get(1)?.percent).toBe(25);
    queue.progress(1, 300, 200);
    expect(queue.get(1)?.percent).toBe(100);
    queue.settle(1, "done");
    expect(queue.busy()).toBe(false);
    expect(queue.count("done")).toBe(1);
  });

  it("can retry a failed or cancelled file, but a finished one stays finished", () => {
    const queue = new UploadQueue<string>(2);
    queue.add(["a", "b"]);
    queue.startable();
    queue.settle(1, "failed");
    queue.retry(1);
    expect(queue.get(1)?.status).toBe("waiting");
    queue.startable();
    queue.settle(1, "done");
    queue.settle(1, "failed");
    expect(queue.get(1)?.status).toBe("done");
    queue.retry(1);
    expect(queue.get(1)?.status).toBe("done");
  });
});
