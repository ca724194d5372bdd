import { closingMs, openingMs, panelShift, panelSize } from "./transform-size.ts";

export { contract } from "./contract.ts";

/**
 * A button that grows into a content panel and shrinks back (island: transform), on a
 * native <details> that works alone without JavaScript. Opening takes 500 ms, closing
 * 400 ms (the CSS transitions on [data-transform-state]); with reduced motion it simply
 * opens and closes. Focus goes to the panel's close button and back to the button.
 */
type State = "closed" | "opening" | "open" | "closing";

export function mount(element: HTMLElement): () => void {
  if (!(element instanceof HTMLDetailsElement))
    throw new Error("transform: the island element must be a <details>");
  const details = element;
  const doc = details.ownerDocument;
  const view = doc.defaultView;
  const summary = details.querySelector<HTMLElement>(":scope > summary");
  const closeButton = details.querySelector<HTMLButtonElement>("[data-transform-close]");
  if (!view || !summary) throw new Error("transform: the summary is missing");
  if (closeButton) closeButton.hidden = false;

  let state: State = details.open ? "open" : "closed";
  let closedSize = { width: 0, height: 0 };
  let finish: (() => void) | undefined;
  const setState = (next: State) => {
    state = next;
    details.dataset.transformState = next;
  };
  setState(state);

  const reducedMotion = () => view.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const clearSize = () => {
    details.style.removeProperty("width");
    details.style.removeProperty("height");
  };
  /** Moves the panel sideways (CSS: --transform-shift, transitioned with the size). */
  let shift = 0;
  const setShift = (px: number) => {
    shift = px;
    if (px === 0) details.style.removeProperty("--transform-shift");
    else details.style.setProperty("--transform-shift", `${px}px`);
  };
  /** The shift that keeps a panel this wide inside the window, from where it stands unshifted. */
  const fitShift = (width: number) =>
    panelShift(details.getBoundingClientRect().left - shift, width, doc.documentElement.clientWidth);

  /** The open panel's size in px at this window width; "full" is its column, "content" its own height. */
  const target = () => {
    const size = panelSize(view.innerWidth);
    if (size.width !== "full" && size.height !== "content") return { width: size.width, height: size.height };
    const before = { width: details.style.width, height: details.style.height };
    details.style.width = "100%";
    details.style.height = "auto";
    const rect = details.getBoundingClientRect();
    details.style.width = before.width;
    details.style.height = before.height;
    return { width: rect.width, height: rect.height };
  };

  /** Whether the panel's width or height is still in a running transition (where the browser can tell). */
  const sizeTransitionRuns = () =>
    (details.getAnimations?.() ?? []).some(
      (animation) =>
        animation.playState === "running" &&
        ["width", "height"].includes((animation as CSSTransition).transitionProperty ?? ""),
    );

  /** Runs `done` when the size transition ends, or after its duration should a transitionend never come. */
  const afterTransition = (ms: number, done: () => void) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const end = (event?: TransitionEvent) => {
      // Width and height end together; at full width only the height changes.
      if (event && (event.target !== details || !["width", "height"].includes(event.propertyName))) return;
      details.removeEventListener("transitionend", end);
      if (timer) clearTimeout(timer);
      finish = undefined;
      done();
    };
    // A busy page can start the transition a few frames after this script asked for it, so
    // the timer may fire while it still runs: its own transitionend then ends it. Ending it
    // early would say "open" while the size still grows (and a running transition towards
    // the same size is not cut short by the open state's 0s).
    const fallback = () => {
      if (sizeTransitionRuns()) timer = setTimeout(fallback, 100);
      else end();
    };
    details.addEventListener("transitionend", end);
    timer = setTimeout(fallback, ms + 100);
    finish = () => end();
  };

  const open = () => {
    finish?.();
    const rect = details.getBoundingClientRect();
    closedSize = { width: rect.width, height: rect.height };
    details.open = true;
    if (reducedMotion()) {
      setState("open");
      setShift(fitShift(details.getBoundingClientRect().width));
      closeButton?.focus();
      return;
    }
    const to = target();
    setShift(fitShift(to.width));
    details.style.width = `${closedSize.width}px`;
    details.style.height = `${closedSize.height}px`;
    setState("opening");
    details.getBoundingClientRect(); // start from the button's size
    details.style.width = `${to.width}px`;
    details.style.height = `${to.height}px`;
    afterTransition(openingMs, () => {
      setState("open");
      clearSize();
    });
    closeButton?.focus({ preventScroll: true });
  };

  const close = () => {
    finish?.();
    // The button is back (and can take focus) once the panel has shrunk into it.
    const done = () => {
      details.open = false;
      setState("closed");
      clearSize();
      setShift(0);
      summary.focus({ preventScroll: true });
    };
    if (reducedMotion() || closedSize.width === 0) {
      done();
      return;
    }
    const rect = details.getBoundingClientRect();
    details.style.width = `${rect.width}px`;
    details.style.height = `${rect.height}px`;
    setState("closing");
    details.getBoundingClientRect();
    setShift(0);
    details.style.width = `${closedSize.width}px`;
    details.style.height = `${closedSize.height}px`;
    afterTransition(closingMs, done);
  };

  const onSummaryClick = (event: MouseEvent) => {
    // The details element would toggle at once; the island animates it instead.
    event.preventDefault();
    if (state === "closed" || state === "closing") open();
    else close();
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key === "Escape" && (state === "open" || state === "opening")) {
      event.stopPropagation();
      close();
    }
  };
  const onClose = () => close();
  // The open panel's size follows the window (CSS); where it stands must follow too.
  const onResize = () => {
    if (state === "open") setShift(fitShift(details.getBoundingClientRect().width));
  };

  summary.addEventListener("click", onSummaryClick);
  details.addEventListener("keydown", onKey);
  closeButton?.addEventListener("click", onClose);
  view.addEventListener("resize", onResize);
  return () => {
    view.removeEventListener("resize", onResize);
    summary.removeEventListener("click", onSummaryClick);
    details.removeEventListener("keydown", onKey);
    closeButton?.removeEventListener("click", onClose);
    if (closeButton) closeButton.hidden = true;
  };
}
