/** Plural forms keyed by Intl plural category, as locales/*.json holds them. Shared with the browser. */
export type PluralTexts = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

const rules = new Map<string, Intl.PluralRules>();

export function pluralText(
  texts: PluralTexts,
  count: number,
  lang: string,
  format: (n: number) => string = String,
): string {
  let rule = rules.get(lang);
  if (!rule) {
    rule = new Intl.PluralRules(lang);
    rules.set(lang, rule);
  }
  const form = texts[rule.select(count)] ?? texts.other;
  return form.replaceAll("{count}", format(count));
}
