import {
  commonPasswords,
  passwordStrength,
  type StrengthLevel,
} from "../../server/forms/password-strength.ts";
import { readProps } from "../runtime/props.ts";

export { contract } from "./contract.ts";

/** What the meter's box carries in its data-props: its words (locales: forms.strength). */
interface MeterProps {
  texts: {
    hint: string;
    label: string;
    levels: Record<StrengthLevel, string>;
    tooShort: string;
    banned: string;
  };
}

/** Screen readers hear the verdict once the shopper pauses, not on every key. */
const announceDelayMs = 600;

/**
 * A live strength meter under password fields marked data-password-strength. The
 * score is the server's own function, so the meter and the server's rule agree.
 * The verdict is written out in words, not shown by colour alone.
 */
export function start(doc: Document): void {
  interface Meter {
    meter: HTMLMeterElement;
    text: HTMLElement;
    timer?: ReturnType<typeof setTimeout>;
  }
  const meters = new WeakMap<HTMLInputElement, Meter>();

  const setUp = (input: HTMLInputElement): Meter | undefined => {
    const box = doc.querySelector<HTMLElement>(`[data-strength-for="${CSS.escape(input.id)}"]`);
    if (!box) return undefined;
    const meter = doc.createElement("meter");
    meter.className = "strength-meter__bar";
    meter.min = 0;
    meter.max = 100;
    meter.low = 41;
    meter.high = 75;
    meter.optimum = 100;
    meter.value = 0;
    meter.setAttribute("aria-hidden", "true");
    const text =
      box.querySelector<HTMLElement>(".strength-meter__text") ?? box.appendChild(doc.createElement("p"));
    text.setAttribute("aria-live", "polite");
    box.prepend(meter);
    const entry: Meter = { meter, text };
    meters.set(input, entry);
    return entry;
  };

  const update = (input: HTMLInputElement) => {
    const entry = meters.get(input) ?? setUp(input);
    const box = entry?.meter.parentElement;
    if (!entry || !box) return;
    const { texts } = readProps<MeterProps>(box);
    const minimumLength = Number(input.dataset.strengthMin) || 8;
    const banMode = input.dataset.strengthBanMode === "exact" ? "exact" : "strict";
    const result = passwordStrength(input.value, { minimumLength, banMode, banList: commonPasswords });
    entry.meter.value = result.percent;
    box.dataset.level = input.value ? result.level : "";
    const percent = Math.round(result.percent);
    let sentence = texts.hint.replace("{min}", String(minimumLength));
    if (input.value) {
      sentence = texts.label
        .replace("{level}", texts.levels[result.level])
        .replace("{percent}", String(percent));
      if (result.banned) sentence += ` ${texts.banned}`;
      else if (result.tooShort) sentence += ` ${texts.tooShort.replace("{min}", String(minimumLength))}`;
    }
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      entry.text.textContent = sentence;
    }, announceDelayMs);
  };

  for (const input of doc.querySelectorAll<HTMLInputElement>("input[data-password-strength]")) update(input);
  doc.addEventListener("input", (event) => {
    const input = event.target;
    if (input instanceof HTMLInputElement && input.hasAttribute("data-password-strength")) update(input);
  });
}
