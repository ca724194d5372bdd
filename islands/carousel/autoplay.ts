/**
 * Autoplay for the carousel, as Flickity's player behaved: every interval it moves on
 * (wrapping to the first slide at the end, which `advance` takes care of). Hover, focus
 * inside and a hidden tab only hold it; any real interaction stops it for good; the
 * shopper can pause and play it with a visible button (WCAG 2.2.2).
 */

/**
 * playing: moving on by itself (unless held); paused: the shopper pressed pause, or
 * prefers reduced motion; stopped: the shopper used the carousel, which ends autoplay.
 */
export type AutoplayState = "playing" | "paused" | "stopped";
/** Reasons to wait without giving up: the pointer is over it, focus is in it, the tab is hidden. */
export type Hold = "hover" | "focus" | "hidden";

export interface AutoplayController {
  readonly state: AutoplayState;
  /** Playing and not held: the slides move on their own right now. */
  readonly rotating: boolean;
  hold(reason: Hold, on: boolean): void;
  /** The shopper asked for motion: plays even while the pointer or focus is inside. */
  play(): void;
  pause(): void;
  /** The shopper used the carousel: autoplay ends until they press play. */
  stop(): void;
  destroy(): void;
}

export interface AutoplayOptions {
  intervalMs: number;
  advance: () => void;
  startPaused?: boolean;
  onChange?: (controller: AutoplayController) => void;
}

export function createAutoplay(options: AutoplayOptions): AutoplayController {
  let state: AutoplayState = options.startPaused ? "paused" : "playing";
  const holds = new Set<Hold>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  // Each wait is a full interval: after a hold ends the next slide comes a whole
  // interval later, never at once.
  const arm = () => {
    clearTimeout(timer);
    timer = undefined;
    if (controller.rotating) timer = setTimeout(tick, options.intervalMs);
  };
  const tick = () => {
    timer = undefined;
    options.advance();
    arm();
  };
  const changed = () => {
    arm();
    options.onChange?.(controller);
  };

  const controller: AutoplayController = {
    get state() {
      return state;
    },
    get rotating() {
      return state === "playing" && holds.size === 0;
    },
    hold(reason, on) {
      if (holds.has(reason) === on) return;
      if (on) holds.add(reason);
      else holds.delete(reason);
      changed();
    },
    play() {
      state = "playing";
      holds.delete("hover");
      holds.delete("focus");
      changed();
    },
    pause() {
      if (state === "paused") return;
      state = "paused";
      changed();
    },
    stop() {
      if (state === "stopped") return;
      state = "stopped";
      changed();
    },
    destroy() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
  arm();
  return controller;
}

export interface AutoplayTexts {
  pause: string;
  play: string;
}

export interface AttachedAutoplay {
  controller: AutoplayController;
  /** The pause/play button; the caller puts it first among the carousel's controls. */
  button: HTMLButtonElement;
  detach(): void;
}

/**
 * Wires a controller to a carousel root: hover and focus hold it, a hidden tab holds
 * it, and a button whose label says what it will do ("Pauzeren" / "Afspelen") lets the
 * shopper decide. With prefers-reduced-motion it starts paused.
 */
export function attachAutoplay(
  root: HTMLElement,
  options: Omit<AutoplayOptions, "startPaused"> & { texts: AutoplayTexts; reducedMotion: boolean },
): AttachedAutoplay {
  const doc = root.ownerDocument;
  const button = doc.createElement("button");
  button.type = "button";
  button.className = "carousel__autoplay";
  const icon = doc.createElement("span");
  icon.className = "carousel__icon";
  icon.setAttribute("aria-hidden", "true");
  const label = doc.createElement("span");
  label.className = "visually-hidden";
  button.append(icon, label);

  const render = (c: AutoplayController) => {
    const playing = c.state === "playing";
    label.textContent = playing ? options.texts.pause : options.texts.play;
    button.dataset.state = playing ? "playing" : "paused";
  };
  const controller = createAutoplay({
    intervalMs: options.intervalMs,
    advance: options.advance,
    startPaused: options.reducedMotion,
    onChange: (c) => {
      render(c);
      options.onChange?.(c);
    },
  });
  render(controller);

  const onEnter = () => controller.hold("hover", true);
  const onLeave = () => controller.hold("hover", false);
  const onFocusIn = () => controller.hold("focus", true);
  const onFocusOut = (event: FocusEvent) => {
    const next = event.relatedTarget;
    if (!(next instanceof Node && root.contains(next))) controller.hold("focus", false);
  };
  const onVisibility = () => controller.hold("hidden", doc.hidden);
  const onButton = () => (controller.state === "playing" ? controller.pause() : controller.play());

  root.addEventListener("pointerenter", onEnter);
  root.addEventListener("pointerleave", onLeave);
  root.addEventListener("focusin", onFocusIn);
  root.addEventListener("focusout", onFocusOut);
  doc.addEventListener("visibilitychange", onVisibility);
  button.addEventListener("click", onButton);
  onVisibility();

  return {
    controller,
    button,
    detach() {
      controller.destroy();
      root.removeEventListener("pointerenter", onEnter);
      root.removeEventListener("pointerleave", onLeave);
      root.removeEventListener("focusin", onFocusIn);
      root.removeEventListener("focusout", onFocusOut);
      doc.removeEventListener("visibilitychange", onVisibility);
      button.remove();
    },
  };
}
