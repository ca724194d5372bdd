/**
 * The one module that knows keen-slider. Everything else talks to the small Slider
 * interface below, so the library (unmaintained since mid-2023) can be swapped by
 * rewriting this file alone.
 */
import KeenSliderModule, { type KeenSliderInstance } from "keen-slider";
import { createSpring, frameMs, type SpringConstants } from "./spring.ts";

type KeenConstructor = typeof KeenSliderModule.default;
// keen-slider ships an ES build (what esbuild bundles: the default export is the class)
// and a CommonJS build (what Node and TypeScript's NodeNext see: the class sits one
// `.default` deeper). Accept both so the browser bundle and the tests run the same code.
const KeenSlider: KeenConstructor =
  (KeenSliderModule as unknown as { default?: KeenConstructor }).default ??
  (KeenSliderModule as unknown as KeenConstructor);

export interface SliderOptions {
  /** The spring every move follows: buttons, keys, dots, autoplay and the settling after a drag. */
  spring: SpringConstants;
  /** Asked at each move: true makes the move a jump (the shopper prefers reduced motion). */
  reducedMotion: () => boolean;
  /** A drag starts only after the pointer has moved this far horizontally. */
  dragThresholdPx: number;
  /** Quiet time after the last size change before the slider measures again. */
  resizeDebounceMs: number;
  /** Gap between slides in px, so the slider places them where the scroll list had them. */
  spacing: number;
  /** The slide to show first (the one a shopper had scrolled to before the script arrived). */
  initial?: number;
  /** The current position changed (during a movement, as soon as another slide is nearest). */
  onChange?: (slider: Slider) => void;
  /** A movement ended, or the slider was measured again: visibility and pages may differ now. */
  onSettle?: (slider: Slider) => void;
  /** The shopper started dragging. */
  onDragStart?: () => void;
  /** The shopper let go; `selected` is the slide the slider now heads for. */
  onDragEnd?: (slider: Slider) => void;
}

export interface Slider {
  /** The current position, 0 … count - 1. */
  readonly index: number;
  /**
   * Positions the slider can rest at. With several slides in view the last ones are
   * shown together, so this can be less than the number of slides.
   */
  readonly count: number;
  /** The position the slider rests at or is on its way to; next and prev go on from it. */
  readonly selected: number;
  next(): void;
  prev(): void;
  /** Goes to a position by the spring, or at once with `instant` (restoring where a shopper was). */
  moveTo(index: number, options?: { instant?: boolean }): void;
  /** For each slide, how much of it is in view: 0 (none) to 1 (all). */
  visibility(): number[];
  destroy(): void;
}

function debounce(fn: () => void, ms: number): { (): void; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const debounced = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      fn();
    }, ms);
  };
  debounced.cancel = () => clearTimeout(timer);
  return debounced;
}

interface DragHandlers {
  enabled(): boolean;
  start(): void;
  /** The pointer moved this many px sideways since the last call (negative: to the left). */
  move(dx: number): void;
  end(): void;
}

/**
 * Dragging with Flickity's threshold, which keen lacks (it starts on the first move and
 * only swallows clicks after 5 px). A gesture becomes a drag once the pointer has moved
 * more than the threshold sideways, and more sideways than up or down: a mostly vertical
 * gesture is the page scrolling. A tap that never crossed the threshold stays a click;
 * the click that ends a drag is swallowed, so a dragged product card does not open.
 */
function dragWithThreshold(frame: HTMLElement, thresholdPx: number, drag: DragHandlers): () => void {
  const view = frame.ownerDocument.defaultView ?? window;
  let gesture: { id: number; x: number; y: number; lastX: number; dragging: boolean } | undefined;
  let swallowClick = false;

  const onMove = (event: PointerEvent) => {
    if (!gesture || event.pointerId !== gesture.id) return;
    if (!gesture.dragging) {
      const dx = Math.abs(event.clientX - gesture.x);
      const dy = Math.abs(event.clientY - gesture.y);
      if (dy > thresholdPx && dy > dx) return end();
      if (dx <= thresholdPx) return;
      gesture.dragging = true;
      swallowClick = true;
      // Keeps the drag when the pointer leaves the window; only now, or a tap's click would land on the frame.
      frame.setPointerCapture?.(event.pointerId);
      drag.start();
    }
    drag.move(event.clientX - gesture.lastX);
    gesture.lastX = event.clientX;
  };
  const end = () => {
    if (gesture?.dragging) {
      drag.end();
      // The click that ends a drag arrives in the same task as pointerup; any later one
      // (a keyboard Enter on a link, say) is the shopper's own and must go through.
      setTimeout(() => {
        swallowClick = false;
      }, 0);
    }
    gesture = undefined;
    view.removeEventListener("pointermove", onMove);
    view.removeEventListener("pointerup", onUp);
    view.removeEventListener("pointercancel", onUp);
  };
  const onUp = (event: PointerEvent) => {
    if (gesture && event.pointerId === gesture.id) end();
  };
  const onDown = (event: PointerEvent) => {
    if (gesture || !drag.enabled() || (event.pointerType === "mouse" && event.button !== 0)) return;
    gesture = {
      id: event.pointerId,
      x: event.clientX,
      y: event.clientY,
      lastX: event.clientX,
      dragging: false,
    };
    view.addEventListener("pointermove", onMove);
    view.addEventListener("pointerup", onUp);
    view.addEventListener("pointercancel", onUp);
  };
  const onClick = (event: MouseEvent) => {
    if (!swallowClick) return;
    swallowClick = false;
    event.preventDefault();
    event.stopPropagation();
  };
  // The browser's own drag and drop of an image or link would take the pointer away.
  const noNativeDrag = (event: DragEvent) => event.preventDefault();

  frame.addEventListener("pointerdown", onDown);
  frame.addEventListener("click", onClick, true);
  frame.addEventListener("dragstart", noNativeDrag);
  return () => {
    end();
    frame.removeEventListener("pointerdown", onDown);
    frame.removeEventListener("click", onClick, true);
    frame.removeEventListener("dragstart", noNativeDrag);
  };
}

/**
 * Turns `container` (whose children are the slides; its parent is the frame that clips
 * them) into a slider. Slides keep the widths CSS gives them, so the slider shows them
 * exactly where the scroll list did.
 */
export function createSlider(container: HTMLElement, options: SliderOptions): Slider {
  const frame = container.parentElement;
  if (!frame) throw new Error("the slider's container needs a parent to clip it");
  const slides = [...container.children] as HTMLElement[];

  // The container's width is held in pixels and only let go after the resize has been
  // quiet for resizeDebounceMs (the spec's 150 ms). keen measures again on every resize
  // event it sees; holding the width keeps it from doing so (and measuring every slide)
  // dozens of times while a window is being resized. A ResizeObserver on the frame also
  // sees width changes without a window resize, such as the page's scrollbar appearing.
  const holdWidth = () => {
    container.style.width = "";
    container.style.width = `${container.getBoundingClientRect().width}px`;
  };
  holdWidth();

  const view = frame.ownerDocument.defaultView ?? window;
  let keen: KeenSliderInstance | undefined;
  const details = () => keen?.track.details;
  const clampIndex = (index: number) => Math.min(Math.max(index, 0), api.count - 1);

  // Every move is the spring's, in px (the unit of its rest test); keen's track counts in
  // frame widths (keen.size px each). keen's own animator, which eases over a fixed time,
  // never runs: the spring moves the track with track.to() once per animation frame.
  const spring = createSpring(options.spring);
  let selected = 0;
  /** The selected slide's place on keen's track. */
  let restAt = 0;
  let frameRequest: number | undefined;
  let lastTime = 0;

  const halt = () => {
    if (frameRequest !== undefined) view.cancelAnimationFrame(frameRequest);
    frameRequest = undefined;
    // Also clears `active`, which the spring sets while it runs.
    keen?.animator.stop();
  };
  const land = () => {
    if (keen) {
      // A jump (reduced motion, a restored slide) is drawn in this frame too, not the next.
      keen.animator.active = true;
      keen.track.to(restAt);
    }
    halt();
    options.onSettle?.(api);
  };
  const tick = (now: number) => {
    frameRequest = undefined;
    if (!keen) return;
    spring.advance(now - lastTime);
    lastTime = now;
    if (spring.settled) return land();
    keen.track.to(spring.position / keen.size);
    frameRequest = view.requestAnimationFrame(tick);
  };
  /**
   * Sends the slider to a position. A move that starts from rest starts at `velocity` (px
   * per 60 Hz frame: how fast a drag let go); one that changes the target of a moving
   * slider keeps the speed it has.
   */
  const glide = (index: number, { instant = false, velocity = 0 } = {}) => {
    const d = details();
    if (!keen || !d) return;
    selected = clampIndex(index);
    restAt = keen.track.idxToDist(selected, true, 0);
    // Read at every move: the shopper may change the setting while the page is open.
    if (instant || options.reducedMotion()) return land();
    if (frameRequest === undefined) {
      if (d.position === restAt && velocity === 0) return options.onSettle?.(api);
      spring.set(d.position * keen.size, velocity);
      lastTime = view.performance.now();
      // keen's renderer draws a track change at once while its animator is active, and a
      // frame late otherwise; the spring is the animator now (halt's stop() clears it).
      keen.animator.active = true;
      frameRequest = view.requestAnimationFrame(tick);
    }
    spring.retarget(restAt * keen.size);
  };

  const api: Slider = {
    get index() {
      const d = details();
      return d ? Math.min(Math.max(d.rel, 0), d.maxIdx) : 0;
    },
    get count() {
      const d = details();
      return d ? d.maxIdx - Math.max(d.minIdx, 0) + 1 : slides.length;
    },
    get selected() {
      return selected;
    },
    next: () => glide(selected + 1),
    prev: () => glide(selected - 1),
    moveTo: (index, { instant = false } = {}) => glide(index, { instant }),
    visibility: () => slides.map((_, i) => details()?.slides[i]?.portion ?? (i === 0 ? 1 : 0)),
    destroy: () => {
      halt();
      measureLater.cancel();
      resizeObserver?.disconnect();
      stopDragging();
      keen?.destroy();
      container.style.width = "";
    },
  };

  keen = new KeenSlider(container, {
    selector: slides,
    initial: options.initial ?? 0,
    slides: { perView: "auto", origin: "auto", spacing: options.spacing },
    renderMode: "precision",
    // keen's own dragging has no threshold and no way to add one: ours drives its track.
    drag: false,
    // "created" fires inside the constructor, before `keen` is assigned: take the instance from the hook.
    created: (instance) => {
      keen = instance;
      selected = api.index;
      options.onSettle?.(api);
    },
    updated: () => options.onSettle?.(api),
    slideChanged: () => options.onChange?.(api),
  });

  let dragFrom = 0;
  const stopDragging = dragWithThreshold(frame, options.dragThresholdPx, {
    enabled: () => slides.length > 1 && api.count > 1,
    start() {
      halt();
      dragFrom = keen?.track.details.abs ?? 0;
      options.onDragStart?.();
    },
    move(dx) {
      const d = keen?.track.details;
      if (!keen || !d) return;
      const delta = -dx / keen.size;
      // Past the first or last slide the content follows at half speed, as Flickity's did.
      const beyond = (d.position <= d.min && delta < 0) || (d.position >= d.max && delta > 0);
      keen.track.add(beyond ? delta / 2 : delta);
    },
    end() {
      const d = keen?.track.details;
      if (!keen || !d) return;
      // Rest on the nearest slide; a flick that has not reached the next one yet still gets there.
      let target = d.abs;
      const velocity = keen.track.velocity();
      if (target === dragFrom && velocity !== 0) target += Math.sign(velocity);
      // The spring goes on at the speed the finger let go (keen measures frame widths per ms).
      glide(target, { velocity: velocity * keen.size * frameMs });
      options.onDragEnd?.(api);
    },
  });

  let frameWidth = frame.getBoundingClientRect().width;
  const measureLater = debounce(() => {
    halt();
    holdWidth();
    // Measured again, it rests at once on the slide it was resting at or heading for.
    keen?.update(undefined, selected);
  }, options.resizeDebounceMs);
  const resizeObserver =
    "ResizeObserver" in view
      ? new view.ResizeObserver(() => {
          const width = frame.getBoundingClientRect().width;
          if (width === frameWidth) return;
          frameWidth = width;
          measureLater();
        })
      : undefined;
  resizeObserver?.observe(frame);

  return api;
}
