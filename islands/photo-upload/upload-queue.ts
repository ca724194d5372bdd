/**
 * The uploader's bookkeeping, apart from the page: which files wait, which are on their
 * way, and at most `parallel` at a time. Pure, so it is tested without a browser.
 */
export type UploadStatus = "waiting" | "uploading" | "done" | "failed" | "cancelled";

export interface QueuedFile<F = File> {
  id: number;
  file: F;
  status: UploadStatus;
  /** 0-100 */
  percent: number;
}

export class UploadQueue<F = File> {
  private items: QueuedFile<F>[] = [];
  private nextId = 1;
  private answered = false;

  /**
   * The very first upload travels alone: its answer may be what gives this browser its
   * shopper cookie, and parallel first requests would each be given a different one.
   */
  constructor(private readonly parallel = 2) {}

  add(files: Iterable<F>): QueuedFile<F>[] {
    const added = [...files].map((file) => ({
      id: this.nextId++,
      file,
      status: "waiting" as const,
      percent: 0,
    }));
    this.items.push(...added);
    return added;
  }

  /** The files to start now, marked as uploading. */
  startable(): QueuedFile<F>[] {
    const running = this.items.filter((i) => i.status === "uploading").length;
    const free = Math.max(0, (this.answered ? this.parallel : 1) - running);
    const next = this.items.filter((i) => i.status === "waiting").slice(0, free);
    for (const item of next) item.status = "uploading";
    return next;
  }

  progress(id: number, loaded: number, total: number): void {
    const item = this.get(id);
    if (item && item.status === "uploading" && total > 0) {
      item.percent = Math.min(100, Math.round((loaded / total) * 100));
    }
  }

  settle(id: number, status: "done" | "failed" | "cancelled"): void {
    const item = this.get(id);
    if (!item || item.status === "done" || item.status === "cancelled") return;
    // A cancelled request may never have reached the server; only an answer counts.
    if (status !== "cancelled") this.answered = true;
    item.status = status;
    if (status === "done") item.percent = 100;
  }

  retry(id: number): void {
    const item = this.get(id);
    if (item && (item.status === "failed" || item.status === "cancelled")) {
      item.status = "waiting";
      item.percent = 0;
    }
  }

  get(id: number): QueuedFile<F> | undefined {
    return this.items.find((i) => i.id === id);
  }

  /** Whether any file still waits or travels: the form must not be sent yet. */
  busy(): boolean {
    return this.items.some((i) => i.status === "waiting" || i.status === "uploading");
  }

  count(status: UploadStatus): number {
    return this.items.filter((i) => i.status === status).length;
  }
}
