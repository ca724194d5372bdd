/**
 * Cross-document view transitions (static/css/transitions.css turns them on): the product
 * image flies from the card the shopper chose to the product page. Names must be unique on
 * a page, so a card's image gets the shared name only as its page is swapped for that
 * product's page (pageswap), and back again when the shopper returns to the list
 * (pagereveal). Nothing happens under prefers-reduced-motion, nor in a browser without
 * these events: the navigation is then an ordinary one.
 */
export const productImageName = "product-image";

interface NavigationActivationLike {
  entry?: { url?: string };
  from?: { url?: string };
}
interface TransitionEventLike extends Event {
  viewTransition?: { finished: Promise<unknown> } | null;
  activation?: NavigationActivationLike | null;
}

function cardImageFor(doc: Document, url: string | undefined): HTMLElement | undefined {
  if (!url) return undefined;
  const path = new URL(url, doc.baseURI).pathname;
  for (const link of doc.querySelectorAll<HTMLAnchorElement>("a.product-card__link")) {
    if (new URL(link.href, doc.baseURI).pathname === path)
      return link.closest(".product-card")?.querySelector<HTMLElement>(".product-card__image") ?? undefined;
  }
  return undefined;
}

function nameFor(image: HTMLElement | undefined, event: TransitionEventLike): void {
  if (!image || !event.viewTransition) return;
  image.style.viewTransitionName = productImageName;
  void event.viewTransition.finished.finally(() => {
    image.style.viewTransitionName = "";
  });
}

export function watchPageTransitions(doc: Document): void {
  const view = doc.defaultView;
  if (!view || view.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return;
  view.addEventListener("pageswap", (event) => {
    const e = event as TransitionEventLike;
    nameFor(cardImageFor(doc, e.activation?.entry?.url), e);
  });
  view.addEventListener("pagereveal", (event) => {
    const e = event as TransitionEventLike;
    const from = (view as Window & { navigation?: { activation?: NavigationActivationLike } }).navigation
      ?.activation?.from?.url;
    nameFor(cardImageFor(doc, from), e);
  });
}
