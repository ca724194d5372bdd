import { track } from "../analytics/track.ts";
import { brokenImageClass } from "../image-error/image-error.ts";
import { fill } from "../runtime/fill.ts";
import { readProps } from "../runtime/props.ts";
import { type AttachedAutoplay, attachAutoplay } from "./autoplay.ts";
import type { CarouselProps } from "./contract.ts";
import { rememberedSlide, rememberSlide } from "./remembered-slide.ts";
import { createSlider, type Slider } from "./slider.ts";

export { contract } from "./contract.ts";

/**
 * The spec's carousel constants (its "Carousel" line; Flickity's options of the same
 * names), in one place. The autoplay interval, 3000 ms, reaches the island as
 * its props: views/partials/carousel.eta writes it where a page asks for autoplay.
 */
export const carouselSpec = {
  /** The spring every move follows (spring.ts): friction 0.28, selected attraction 0.025. */
  spring: { friction: 0.28, attraction: 0.025 },
  dragThresholdPx: 3,
  resizeDebounceMs: 150,
  /** Slide images load once they come within 150 px of the visible part, sideways. */
  lazyRootMargin: "0px 150px",
} as const;

function button(doc: Document, className: string, text: string): HTMLButtonElement {
  const el = doc.createElement("button");
  el.type = "button";
  el.className = className;
  const icon = doc.createElement("span");
  icon.className = "carousel__icon";
  icon.setAttribute("aria-hidden", "true");
  const label = doc.createElement("span");
  label.className = "visually-hidden";
  label.textContent = text;
  el.append(icon, label);
  return el;
}

function loadImage(img: HTMLImageElement): void {
  const src = img.dataset.carouselSrc;
  if (!src) return;
  // The shop's boot marks broken images too; saying it here keeps the island right on its own.
  img.addEventListener("error", () => img.classList.add(brokenImageClass), { once: true });
  const { carouselSrcset: srcset, carouselSizes: sizes } = img.dataset;
  if (sizes) img.sizes = sizes;
  if (srcset) img.srcset = srcset;
  img.src = src;
  delete img.dataset.carouselSrc;
  delete img.dataset.carouselSrcset;
  delete img.dataset.carouselSizes;
}

/** Loads slide images once they come near the visible part of the carousel. */
function lazyImages(list: HTMLElement): () => void {
  const images = [...list.querySelectorAll<HTMLImageElement>("img[data-carousel-src]")];
  const view = list.ownerDocument.defaultView;
  if (!view || !("IntersectionObserver" in view)) {
    images.forEach(loadImage);
    return () => {};
  }
  const observer = new view.IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        loadImage(entry.target as HTMLImageElement);
      }
    },
    // The list clips the slides, so it is the root: "near" means near what the shopper sees of it.
    { root: list, rootMargin: carouselSpec.lazyRootMargin },
  );
  for (const img of images) observer.observe(img);
  return () => observer.disconnect();
}

/** The slide a shopper had scrolled the plain list to before the script arrived. */
function scrolledSlide(list: HTMLElement, slides: HTMLElement[]): number {
  const start = slides[0]?.offsetLeft ?? 0;
  let nearest = 0;
  slides.forEach((slide, i) => {
    const distance = Math.abs(slide.offsetLeft - start - list.scrollLeft);
    const best = Math.abs((slides[nearest]?.offsetLeft ?? 0) - start - list.scrollLeft);
    if (distance < best) nearest = i;
  });
  return nearest;
}

const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

/**
 * The carousel island (WAI-ARIA APG carousel pattern). The server renders a plain list
 * that scrolls sideways with scroll snap; this turns it into a slider with previous and
 * next buttons, page dots, arrow keys, lazy slide images and, where its props ask for it
 * (autoplayMs), autoplay with a pause button.
 */
export function mount(root: HTMLElement): () => void {
  const doc = root.ownerDocument;
  const view = doc.defaultView ?? window;
  const { texts, autoplayMs = 0 } = readProps<CarouselProps>(root);
  const frame = root.querySelector<HTMLElement>(".carousel__frame");
  const list = frame?.querySelector<HTMLElement>(".carousel__slides");
  if (!frame || !list) throw new Error("carousel: .carousel__frame > .carousel__slides is missing");
  const slides = [...list.children] as HTMLElement[];
  const reducedMotion = () => view.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

  // Read the scroll list before it changes: where the shopper scrolled to, the gap
  // between slides, and the height of the scrollbar the slider no longer shows, which
  // the controls' band takes over so nothing below the carousel moves. A slide scrolled
  // to before the script arrived is newer than the one this history entry remembers.
  const remembered = rememberedSlide(root.id, view);
  const initial = scrolledSlide(list, slides) || (remembered ?? 0);
  const spacing = Number.parseFloat(view.getComputedStyle(list).columnGap) || 0;
  root.style.setProperty("--carousel-scrollbar", `${Math.max(0, list.offsetHeight - list.clientHeight)}px`);
  list.scrollLeft = 0;
  root.classList.add("carousel--enhanced");
  root.setAttribute("aria-roledescription", texts.roleCarousel);
  // The slides become groups (APG); a list may not hold those, so the list steps back.
  list.setAttribute("role", "none");
  list.removeAttribute("tabindex");
  slides.forEach((slide, i) => {
    slide.setAttribute("role", "group");
    slide.setAttribute("aria-roledescription", texts.roleSlide);
    slide.setAttribute("aria-label", fill(texts.slide, { n: i + 1, count: slides.length }));
  });

  const controls = doc.createElement("div");
  controls.className = "carousel__controls";
  const prev = button(doc, "carousel__prev", texts.previous);
  const next = button(doc, "carousel__next", texts.next);
  const dots = doc.createElement("div");
  dots.className = "carousel__dots";
  // Tab order follows what the eye sees in the band: (pause,) previous, the dots, next.
  controls.append(prev, dots, next);
  root.prepend(controls);

  let autoplay: AttachedAutoplay | undefined;
  const interact = () => autoplay?.controller.stop();
  /**
   * After a move of the shopper's: the slide is remembered for Back and Forward, and the
   * move counted, when it reached another slide. Autoplay's moves are neither.
   */
  const moved = (via: "button" | "dot" | "key" | "drag", from: number) => {
    const index = slider.selected;
    if (index === from) return;
    rememberSlide(root.id, index, view);
    track(root, "carousel.move", { carousel: root.id, index, via });
  };
  const shopperMove = (via: "button" | "dot" | "key", move: () => void) => {
    interact();
    const from = slider.selected;
    move();
    moved(via, from);
  };

  const showPosition = (s: Slider) => {
    const index = s.index;
    prev.setAttribute("aria-disabled", String(index === 0));
    next.setAttribute("aria-disabled", String(index >= s.count - 1));
    [...dots.children].forEach((dot, i) => {
      if (i === index) dot.setAttribute("aria-current", "true");
      else dot.removeAttribute("aria-current");
    });
  };
  const showPages = (s: Slider) => {
    controls.hidden = s.count < 2;
    if (dots.children.length !== s.count) {
      dots.replaceChildren(
        ...Array.from({ length: s.count }, (_, i) => {
          const dot = doc.createElement("button");
          dot.type = "button";
          dot.className = "carousel__dot";
          dot.setAttribute("aria-label", fill(texts.dot, { n: i + 1, count: s.count }));
          dot.addEventListener("click", () => shopperMove("dot", () => slider.moveTo(i)));
          return dot;
        }),
      );
    }
    // On a narrow screen many dots would not fit beside the buttons; the buttons and keys
    // reach every slide, so the dots give way rather than wrap into the slides.
    dots.hidden = false;
    dots.hidden = controls.scrollWidth > controls.clientWidth;
    showPosition(s);
  };
  // Slides wholly out of view leave the tab order and the accessibility tree.
  const showVisibility = (s: Slider) => {
    s.visibility().forEach((portion, i) => {
      slides[i]?.toggleAttribute("inert", portion === 0);
    });
  };

  let dragFrom = 0;
  const slider = createSlider(list, {
    spring: carouselSpec.spring,
    reducedMotion,
    dragThresholdPx: carouselSpec.dragThresholdPx,
    resizeDebounceMs: carouselSpec.resizeDebounceMs,
    spacing,
    initial,
    onChange: showPosition,
    onSettle: (s) => {
      showPages(s);
      showVisibility(s);
    },
    onDragStart: () => {
      interact();
      dragFrom = slider.selected;
    },
    onDragEnd: () => moved("drag", dragFrom),
  });

  const onPrev = () => shopperMove("button", () => slider.prev());
  const onNext = () => shopperMove("button", () => slider.next());
  const onKey = (event: KeyboardEvent) => {
    if (typing(event.target) || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    event.preventDefault();
    shopperMove("key", () => (event.key === "ArrowLeft" ? slider.prev() : slider.next()));
  };
  // Focus that lands in a slide partly out of view brings that slide in. Browsers also
  // scroll a clipping box to show what got focus; the slider moves by transforms, so
  // any such scroll is undone.
  const onFocus = (event: FocusEvent) => {
    const index = slides.findIndex((slide) => slide.contains(event.target as Node));
    if (index < 0 || (slider.visibility()[index] ?? 0) === 1) return;
    slider.moveTo(index);
    rememberSlide(root.id, slider.selected, view);
  };
  // Back or Forward to this page from the back/forward cache, or to another history entry
  // of it, shows the slide that entry remembers, at once (a load reads it above).
  const restore = (event: Event) => {
    if (event.type === "pageshow" && !(event as PageTransitionEvent).persisted) return;
    const index = rememberedSlide(root.id, view);
    if (index !== undefined && index !== slider.selected) slider.moveTo(index, { instant: true });
  };
  const unscroll = (event: Event) => {
    const box = event.currentTarget as HTMLElement;
    if (box.scrollLeft !== 0) box.scrollLeft = 0;
  };
  prev.addEventListener("click", onPrev);
  next.addEventListener("click", onNext);
  root.addEventListener("keydown", onKey);
  frame.addEventListener("pointerdown", interact);
  list.addEventListener("focusin", onFocus);
  list.addEventListener("scroll", unscroll);
  frame.addEventListener("scroll", unscroll);
  view.addEventListener("pageshow", restore);
  view.addEventListener("popstate", restore);

  const showLiveness = (rotating: boolean) => frame.setAttribute("aria-live", rotating ? "off" : "polite");
  if (autoplayMs > 0 && slides.length > 1) {
    autoplay = attachAutoplay(root, {
      intervalMs: autoplayMs,
      advance: () => (slider.selected >= slider.count - 1 ? slider.moveTo(0) : slider.next()),
      texts: { pause: texts.pause, play: texts.play },
      reducedMotion: reducedMotion(),
      onChange: (c) => showLiveness(c.rotating),
    });
    // First among the controls: the APG puts the rotation control before everything it moves.
    controls.prepend(autoplay.button);
    // The shopper had moved it, which ended autoplay; coming back, it stays where they left it.
    if (remembered !== undefined) autoplay.controller.stop();
  }
  showLiveness(autoplay?.controller.rotating ?? false);
  const stopLazy = lazyImages(list);

  return () => {
    stopLazy();
    autoplay?.detach();
    slider.destroy();
    controls.remove();
    root.removeEventListener("keydown", onKey);
    frame.removeEventListener("pointerdown", interact);
    list.removeEventListener("focusin", onFocus);
    list.removeEventListener("scroll", unscroll);
    frame.removeEventListener("scroll", unscroll);
    view.removeEventListener("pageshow", restore);
    view.removeEventListener("popstate", restore);
    frame.removeAttribute("aria-live");
    root.classList.remove("carousel--enhanced");
    root.removeAttribute("aria-roledescription");
    root.style.removeProperty("--carousel-scrollbar");
    list.removeAttribute("role");
    list.setAttribute("tabindex", "0");
    for (const slide of slides) {
      for (const name of ["role", "aria-roledescription", "aria-label", "inert"]) slide.removeAttribute(name);
    }
  };
}
