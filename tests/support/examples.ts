import { type TestShop, testShop } from "./app.ts";

/**
 * A hook's example as the pattern library renders it: the single fixture of the island
 * tests, so no test hand-types a hook's markup. The library's pages are fetched once per
 * test file and language.
 */
let shop: Promise<TestShop> | undefined;
const pages = new Map<string, Promise<string>>();

function libraryPage(locale: "nl" | "de"): Promise<string> {
  let page = pages.get(locale);
  if (!page) {
    shop ??= testShop({ env: { PATTERN_LIBRARY: "true" } });
    page = shop.then(async ({ app }) => {
      const response = await app.inject({
        url: locale === "nl" ? "/patroonbibliotheek" : "/musterbibliothek",
      });
      if (response.statusCode !== 200) throw new Error(`pattern library answered ${response.statusCode}`);
      return response.body;
    });
    pages.set(locale, page);
  }
  return page;
}

/** The markup of example `name` of `hook` (islands/<hook>/examples.ts), as the server renders it. */
export async function exampleHtml(
  hook: string,
  name = "default",
  locale: "nl" | "de" = "nl",
): Promise<string> {
  const body = await libraryPage(locale);
  // A template's content is inert: the page's stylesheet and scripts are not fetched.
  const template = document.createElement("template");
  template.innerHTML = body.slice(body.indexOf("<main"), body.lastIndexOf("</main>") + 7);
  const example = template.content.querySelector(`[data-example="${hook}:${name}"]`);
  if (!example) throw new Error(`the pattern library has no example "${name}" of "${hook}"`);
  return example.innerHTML;
}

/** Puts the example into the test document's body and returns the hook's elements in it. */
export async function renderExample<E extends Element = HTMLElement>(
  hook: string,
  name = "default",
  locale: "nl" | "de" = "nl",
): Promise<E[]> {
  document.documentElement.lang = locale;
  document.body.innerHTML = await exampleHtml(hook, name, locale);
  return [...document.querySelectorAll<E>(`[data-island="${hook}"]`)];
}

export async function closeExamples(): Promise<void> {
  const open = shop;
  shop = undefined;
  pages.clear();
  await (await open)?.close();
}
