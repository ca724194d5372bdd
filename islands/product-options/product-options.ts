import type { Orientation } from "../../server/domain/catalogue.ts";
import { nearestSize } from "../../server/domain/product-options.ts";
import { track } from "../analytics/track.ts";
import { selectionStore } from "../product/selection-store.ts";
import { readPageState, writePageState } from "../runtime/history-state.ts";
import { readProps } from "../runtime/props.ts";
import { retargetShare } from "../share/share-target.ts";
import type { ProductOptionsProps } from "./contract.ts";

export { contract } from "./contract.ts";

/** The choice as this history entry keeps it, by the ids the props use. */
interface KeptChoice {
  orientation: string;
  size: string;
}
const stateKey = "product-options";

/**
 * Switches the product page between options in place: the server rendered every
 * combination as its own URL, and this island gives the same result without a reload.
 * The price, availability, the add-to-cart fields, the address, the page title, the
 * language links and the share links follow the choice; the 360 viewer and the add-to-cart
 * bar follow through the selection store.
 *
 * Back and Forward: the address carries the choice, so the server renders it again, and
 * the history entry keeps it too. On mount (and on a return from the back/forward cache)
 * the island makes the selects, the price and the rest agree with that choice, whatever
 * the browser restored into the selects.
 */
export function mount(element: HTMLElement): () => void {
  const props = readProps<ProductOptionsProps>(element);
  const orientationSelect = element.querySelector<HTMLSelectElement>("[data-product-orientation]");
  const sizeSelect = element.querySelector<HTMLSelectElement>("[data-product-size]");
  if (!orientationSelect || !sizeSelect) throw new Error("product-options: the option selects are missing");
  const doc = element.ownerDocument;
  const view = doc.defaultView ?? undefined;

  const orientationBySlug = new Map(props.orientations.map((o) => [o.slug, o]));
  const choiceOf = (orientationSlug: string, sizeId: string) => {
    const orientation = orientationBySlug.get(orientationSlug) ?? props.orientations[0];
    if (!orientation) throw new Error("product-options: no orientations");
    const size =
      props.sizes.find((s) => s.orientation === orientation.id && s.id === sizeId) ??
      nearestSize(props, orientation.id, sizeId);
    return { orientation, size: size as ProductOptionsProps["sizes"][number] };
  };
  const current = () => choiceOf(orientationSelect.value, sizeSelect.value);
  // The options the server marked selected: what the page shows, whatever the browser restored into the selects.
  const marked = (select: HTMLSelectElement) =>
    ([...select.options].find((o) => o.defaultSelected) ?? select.options[0])?.value ?? "";
  const rendered = choiceOf(marked(orientationSelect), marked(sizeSelect));
  const publish = (choice: ReturnType<typeof current>) => {
    selectionStore.getState().select({
      productId: props.productId,
      orientation: choice.orientation.id,
      sizeId: choice.size.id,
      frontId: choice.orientation.frontId,
      choice: choice.size.choice,
      price: choice.size.price,
      available: choice.size.available,
    });
  };
  // What the rest of the page shows: the server's choice until the island changes it.
  let shown = { orientation: rendered.orientation.id, size: rendered.size.id };
  // The layout adds the site's name to the page's own title; whatever it adds is kept.
  const startTitle = rendered.size.title;
  const titleSuffix = doc.title.startsWith(startTitle) ? doc.title.slice(startTitle.length) : undefined;

  const sizeOptionLabel = (s: ProductOptionsProps["sizes"][number]) => {
    const recommended = s.orientation === props.recommended.orientation && s.id === props.recommended.size;
    return (
      s.label +
      (recommended ? ` (${props.texts.recommended.toLowerCase()})` : "") +
      (s.available ? "" : ` (${props.texts.unavailableShort})`)
    );
  };

  /** Only the sizes of the chosen orientation are offered: combinations that do not exist never appear. */
  const offerSizes = (orientation: Orientation, selected: string) => {
    const options = props.sizes
      .filter((s) => s.orientation === orientation)
      .map((s) => {
        const option = doc.createElement("option");
        option.value = s.id;
        option.textContent = sizeOptionLabel(s);
        option.selected = s.id === selected;
        return option;
      });
    sizeSelect.replaceChildren(...options);
  };

  const queryFor = (names: { orientation: string; size: string }, slug: string, size: string) =>
    new URLSearchParams([
      [names.orientation, slug],
      [names.size, size],
    ]).toString();

  const show = () => {
    const { orientation, size } = current();
    const price = element.querySelector("[data-product-price]");
    if (price) price.textContent = size.price;
    const availability = element.querySelector("[data-product-availability]");
    if (availability) {
      availability.textContent = size.available ? props.texts.available : props.texts.unavailable;
      availability.classList.toggle("product__availability--unavailable", !size.available);
    }
    // The add-to-cart region is swapped by ajax posts, so its fields are looked up each time.
    for (const field of element.querySelectorAll<HTMLInputElement>("[data-product-field]")) {
      field.value = field.dataset.productField === "orientation" ? orientation.id : size.id;
    }
    for (const button of element.querySelectorAll<HTMLButtonElement>("[data-product-submit]")) {
      button.disabled = !size.available;
    }

    const address = `${props.path}?${queryFor(props.query, orientation.slug, size.id)}`;
    if (view) view.history.replaceState(view.history.state, "", address + view.location.hash);
    if (titleSuffix !== undefined) doc.title = size.title + titleSuffix;
    // A notice about an unknown option in the address no longer applies to the one chosen now.
    doc.querySelector("[data-product-notice]")?.remove();
    // The product's own share block (the same article), not one elsewhere on the page.
    const article = element.closest("article");
    for (const share of article?.querySelectorAll<HTMLElement>('[data-island="share"]') ?? []) {
      retargetShare(share, address);
    }
    for (const alternate of props.alternates) {
      const link = doc.querySelector<HTMLAnchorElement>(
        `.language-switcher a[hreflang="${alternate.locale}"]`,
      );
      const slug = alternate.slugs[orientation.id];
      if (link && slug) link.href = `${alternate.path}?${queryFor(alternate.query, slug, size.id)}`;
    }
    shown = { orientation: orientation.id, size: size.id };
    if (view) writePageState(stateKey, shown satisfies KeptChoice, view);
    publish({ orientation, size });
  };

  const onOrientation = () => {
    const orientation = orientationBySlug.get(orientationSelect.value);
    if (!orientation) return;
    // Switching landscape to portrait keeps the shopper's size turned a quarter (30x21 → 21x30).
    offerSizes(orientation.id, nearestSize(props, orientation.id, sizeSelect.value).id);
    show();
  };

  /**
   * Brings the selects to the choice this history entry kept, if any, and then the page to
   * the selects: a browser that restored other values into them (or a page shown again from
   * the back/forward cache) gets the price, fields and address of what the selects say.
   */
  const sync = () => {
    const kept = view && readPageState<KeptChoice>(stateKey, view);
    const keptSize =
      kept && props.sizes.find((s) => s.orientation === kept.orientation && s.id === kept.size);
    const keptOrientation = keptSize && props.orientations.find((o) => o.id === keptSize.orientation);
    if (keptSize && keptOrientation) orientationSelect.value = keptOrientation.slug;
    const orientation = current().orientation;
    // The sizes on offer must be the orientation's, whichever select the browser restored.
    const offered = [...sizeSelect.options].map((o) => o.value);
    const own = props.sizes.filter((s) => s.orientation === orientation.id).map((s) => s.id);
    const wanted = keptSize?.id ?? sizeSelect.value;
    if (offered.join() !== own.join())
      offerSizes(orientation.id, nearestSize(props, orientation.id, wanted).id);
    else if (keptSize) sizeSelect.value = keptSize.id;
    const choice = current();
    if (choice.orientation.id !== shown.orientation || choice.size.id !== shown.size) show();
    // The store starts from what the server rendered, without touching the address.
    else publish(choice);
  };
  /** Analytics: the shopper's own changes only, never a choice brought back (sync). */
  const reportChange = (event: Event) => {
    const byOrientation = event.target === orientationSelect;
    const choice = current();
    track(element, "product.option_change", {
      productId: props.productId,
      option: byOrientation ? "orientation" : "size",
      value: byOrientation ? choice.orientation.id : choice.size.id,
    });
  };
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted) sync();
  };

  orientationSelect.addEventListener("change", onOrientation);
  sizeSelect.addEventListener("change", show);
  orientationSelect.addEventListener("change", reportChange);
  sizeSelect.addEventListener("change", reportChange);
  view?.addEventListener("pageshow", onPageShow);
  sync();
  return () => {
    orientationSelect.removeEventListener("change", onOrientation);
    sizeSelect.removeEventListener("change", show);
    orientationSelect.removeEventListener("change", reportChange);
    sizeSelect.removeEventListener("change", reportChange);
    view?.removeEventListener("pageshow", onPageShow);
  };
}
