import type { z } from "zod";
import type { HookContract } from "./define-hook.ts";

/**
 * What an example may use to fill in its parameters: the page's words and links, and the
 * live data the pattern library gathers (a product, the FAQ, the delivery times), so the
 * examples show the shop's real content in the page's language.
 */
export interface ExampleContext {
  locale: "nl" | "de";
  t: (key: string, values?: Record<string, string | number>) => string;
  href: (id: string, params?: Record<string, string>) => string;
  escape: (text: string) => string;
  csrfToken: () => string;
  /**
   * Renders a companion partial that is not itself a hook (a modal's source, the ajax
   * example's form region) with the page's context, for markup().
   */
  include: (partial: string, data?: Record<string, unknown>) => string;
  /** Live data from the pattern library's route (server/routes/patterns.ts). */
  data: Record<string, unknown>;
}

export interface HookExample<Params> {
  /** What this example shows, in the pattern library's language. */
  title: (ctx: ExampleContext) => string;
  /** The partial's parameters; undefined skips the example (its data is not there, such as an empty catalogue). */
  params?: (ctx: ExampleContext) => Params | undefined;
  /**
   * Markup around the rendered partial (`html`), when the hook needs a context of its
   * own: a form around the uploader, a list item around a tooltip. For attribute-only
   * behaviours, the whole example markup.
   */
  markup?: (ctx: ExampleContext, html: string) => string;
}

export type Examples<C> = Record<
  string,
  HookExample<C extends HookContract<infer P, z.ZodObject> ? z.input<P> : never>
>;

/**
 * A hook's examples: the single fixture for the pattern library, the island tests and the
 * journeys of one hook. Keyed by a short name ("default", "autoplay").
 */
export function defineExamples<C extends HookContract>(contract: C, examples: Examples<C>) {
  return { contract, examples };
}

export type HookExamples = ReturnType<typeof defineExamples<HookContract>>;
