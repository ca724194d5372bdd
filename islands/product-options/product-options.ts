import type { Orientation } from "../../server/domain/catalogue.ts";
import { nearestSize } from "../../server/domain/product-options.ts";
import { selectionStore } from "../product/selection-store.ts";
import { readProps } from "../runtime/props.ts";
import { retargetShare } from "../share/share-target.ts";
import type { ProductOptionsProps } from "./contract.ts";

export { contract } from "./contract.ts";

/**
 * Switches the product page between options in place: the server rendered every
 * combination as its own URL, and this island gives the same result without a reload.
 * The price, availability, the add-to-cart fields, the address, the page title, the
 * language links and the share links follow the choice; the 360 viewer follows through
 * the selection store.
 */
export function mount(element: HTMLElement): () => void {
  const props = readProps<ProductOptionsProps>(element);
  const orientationSelect = element.querySelector<HTMLSelectElement>("[data-product-orientation]");
  const sizeSelect = element.querySelector<HTMLSelectElement>("[data-product-size]");
  if (!orientationSelect || !sizeSelect) throw new Error("product-options: the option selects are missing");
  const doc = element.ownerDocument;
  const view = doc.defaultView;

  const orientationBySlug = new Map(props.orientations.map((o) => [o.slug, o]));
  const current = () => {
    const orientation = orientationBySlug.get(orientationSelect.value) ?? props.orientations[0];
    if (!orientation) throw new Error("product-options: no orientations");
    const size =
      props.sizes.find((s) => s.orientation === orientation.id && s.id === sizeSelect.value) ??
      nearestSize(props, orientation.id, sizeSelect.value);
    return { orientation, size: size as ProductOptionsProps["sizes"][number] };
  };
  // The layout adds the site's name to the page's own title; whatever it adds is kept.
  const startTitle = current().size.title;
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
    selectionStore.getState().select({
      productId: props.productId,
      orientation: orientation.id,
      sizeId: size.id,
      frontId: orientation.frontId,
    });
  };

  const onOrientation = () => {
    const orientation = orientationBySlug.get(orientationSelect.value);
    if (!orientation) return;
    // Switching landscape to portrait keeps the shopper's size turned a quarter (30x21 → 21x30).
    offerSizes(orientation.id, nearestSize(props, orientation.id, sizeSelect.value).id);
    show();
  };

  orientationSelect.addEventListener("change", onOrientation);
  sizeSelect.addEventListener("change", show);
  // The store starts from what the server rendered, without touching the address.
  const { orientation, size } = current();
  selectionStore.getState().select({
    productId: props.productId,
    orientation: orientation.id,
    sizeId: size.id,
    frontId: orientation.frontId,
  });
  return () => {
    orientationSelect.removeEventListener("change", onOrientation);
    sizeSelect.removeEventListener("change", show);
  };
}
