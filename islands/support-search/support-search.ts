import { ajaxUpdatedEvent } from "../ajax/events.ts";
import { track } from "../analytics/track.ts";
import { pageLang, pluralText } from "../runtime/lang.ts";
import { readProps } from "../runtime/props.ts";
import type { SupportSearchProps } from "./contract.ts";

export { contract } from "./contract.ts";

/**
 * The support search's field as an ARIA combobox with a listbox popup (WAI-ARIA APG,
 * list autocomplete). The ajax hook fetches the suggestions while the shopper types
 * (data-ajax-trigger="input" on the form), puts them into the listbox and says so with
 * ajaxUpdatedEvent; this island makes them usable. Focus stays in the field, and
 * aria-activedescendant names the active option: ArrowDown/ArrowUp open the list and
 * move through it, Enter opens the active suggestion, Escape closes the list and a second
 * Escape empties the field, Tab leaves it. Each answer is announced in a polite live
 * region ("5 suggesties"), once, when it arrives: after typing paused. Without the
 * island the listbox stays hidden and the form submits to the results page.
 */
export function mount(element: HTMLElement): () => void {
  const form = element.querySelector<HTMLFormElement>("form");
  const input = element.querySelector<HTMLInputElement>('input[name="q"]');
  const listbox = element.querySelector<HTMLElement>('[role="listbox"]');
  const status = element.querySelector<HTMLElement>("[data-support-search-status]");
  // The runtime checked the contract's parts before mounting: this only satisfies the types.
  if (!form || !input || !listbox || !status) return () => {};
  const { texts } = readProps<SupportSearchProps>(element);
  const lang = pageLang(element);
  const number = new Intl.NumberFormat(lang);
  const view = element.ownerDocument.defaultView;

  let active = -1;
  /** The field's words the listed suggestions answer, to tell stale ones from current ones. */
  let listedFor: string | undefined;

  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-controls", listbox.id);
  input.setAttribute("aria-expanded", "false");

  const options = () => [...listbox.querySelectorAll<HTMLElement>('[role="option"]')];
  const suggestions = () => options().filter((option) => option.dataset.searchKind !== "all");
  const isOpen = () => !listbox.hidden;

  /** How many results the listed words have: all of them, when the list offers the results page. */
  const resultCount = (): number | undefined => {
    if (listedFor === undefined || listedFor !== input.value.trim()) return undefined;
    const all = options().find((option) => option.dataset.searchKind === "all");
    return all ? Number(all.dataset.searchTotal) : suggestions().length;
  };

  const activate = (index: number) => {
    const list = options();
    active = index;
    list.forEach((option, i) => {
      if (i === index) option.setAttribute("aria-selected", "true");
      else option.removeAttribute("aria-selected");
    });
    const option = list[index];
    if (option) {
      input.setAttribute("aria-activedescendant", option.id);
      option.scrollIntoView?.({ block: "nearest" });
    } else input.removeAttribute("aria-activedescendant");
  };

  const open = () => {
    listbox.hidden = false;
    input.setAttribute("aria-expanded", "true");
  };

  const close = () => {
    activate(-1);
    listbox.hidden = true;
    input.setAttribute("aria-expanded", "false");
  };

  /** New suggestions arrived (the ajax hook put them in: perhaps none), or the list was emptied. */
  const refreshed = () => {
    const list = options();
    list.forEach((option, i) => {
      option.id = `${listbox.id}-${i + 1}`;
    });
    const words = input.value.trim();
    listedFor = words;
    if (!words) {
      status.textContent = "";
      close();
      return;
    }
    const count = suggestions().length;
    status.textContent =
      count > 0 ? pluralText(texts.count, count, lang, (n) => number.format(n)) : texts.none;
    activate(-1);
    if (list.length > 0 && element.ownerDocument.activeElement === input) open();
    else close();
  };

  const choose = (option: HTMLElement) => {
    const kind = option.dataset.searchKind;
    if (kind === "all") {
      close();
      form.requestSubmit();
      return;
    }
    const href = option.dataset.searchHref;
    if (!href || (kind !== "faq" && kind !== "product")) return;
    // Counts, never the words typed (personal data).
    track(form, "search.submit", { via: "suggest", results: resultCount() });
    track(form, "search.result_click", { kind, position: Number(option.dataset.searchPosition) });
    close();
    view?.location.assign(href);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.isComposing) return;
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp": {
        const list = options();
        if (list.length === 0 || !input.value.trim()) return;
        event.preventDefault();
        const down = event.key === "ArrowDown";
        if (!isOpen() || active === -1) {
          open();
          activate(down ? 0 : list.length - 1);
        } else activate((active + (down ? 1 : -1) + list.length) % list.length);
        return;
      }
      case "Enter": {
        const option = options()[active];
        if (!isOpen() || !option) return;
        event.preventDefault();
        choose(option);
        return;
      }
      case "Escape":
        if (isOpen()) {
          event.preventDefault();
          close();
        } else if (input.value) {
          // A search field's own Escape would empty it too, but keep the listbox behind.
          event.preventDefault();
          input.value = "";
          listbox.replaceChildren();
          refreshed();
        }
        return;
    }
  };

  const onInput = () => {
    // The list answers the previous words until the new suggestions arrive.
    activate(-1);
    if (!input.value.trim()) close();
  };

  // The listbox never takes focus: a press on an option keeps it in the field.
  const keepFocus = (event: Event) => event.preventDefault();
  const onClick = (event: MouseEvent) => {
    const option = (event.target as Element | null)?.closest?.<HTMLElement>('[role="option"]');
    if (option && listbox.contains(option)) choose(option);
  };
  const onSubmit = (event: SubmitEvent) => {
    if (!event.defaultPrevented) track(form, "search.submit", { via: "page", results: resultCount() });
  };

  form.addEventListener(ajaxUpdatedEvent, refreshed);
  input.addEventListener("keydown", onKeyDown);
  input.addEventListener("input", onInput);
  input.addEventListener("blur", close);
  listbox.addEventListener("mousedown", keepFocus);
  listbox.addEventListener("click", onClick);
  form.addEventListener("submit", onSubmit);

  return () => {
    form.removeEventListener(ajaxUpdatedEvent, refreshed);
    input.removeEventListener("keydown", onKeyDown);
    input.removeEventListener("input", onInput);
    input.removeEventListener("blur", close);
    listbox.removeEventListener("mousedown", keepFocus);
    listbox.removeEventListener("click", onClick);
    form.removeEventListener("submit", onSubmit);
    close();
    for (const name of ["role", "aria-autocomplete", "aria-controls", "aria-expanded"])
      input.removeAttribute(name);
  };
}
