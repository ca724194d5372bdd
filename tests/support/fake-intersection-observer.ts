/**
 * A stand-in IntersectionObserver a test drives by hand: happy-dom has no layout, so
 * nothing would ever intersect. Install it with vi.stubGlobal("IntersectionObserver",
 * FakeObserver) and reset FakeObserver.all after each test.
 */
export class FakeObserver {
  static all: FakeObserver[] = [];
  readonly targets = new Set<Element>();
  constructor(
    readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit = {},
  ) {
    FakeObserver.all.push(this);
  }
  observe(target: Element) {
    this.targets.add(target);
  }
  unobserve(target: Element) {
    this.targets.delete(target);
  }
  disconnect() {
    this.targets.clear();
  }
  takeRecords() {
    return [];
  }
  /** The shopper brings the element within the observer's margin. */
  near(target: Element) {
    const entry = { target, isIntersecting: true } as IntersectionObserverEntry;
    this.callback([entry], this as unknown as IntersectionObserver);
  }
}
