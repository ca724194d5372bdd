import { defineHook, z } from "../runtime/define-hook.ts";

const propsSchema = z.object({
  texts: z
    .object({
      count: z
        .object({
          one: z.string().optional(),
          other: z
            .string()
            .describe('"{count} suggesties": the form for any count without a form of its own'),
        })
        .describe(
          "What the live region says once suggestions came, per plural form (locales: search.suggestionCount)",
        ),
      none: z.string().describe("What it says when no suggestion matches (search.noSuggestions)"),
    })
    .describe("The island's words"),
});

export type SupportSearchProps = z.infer<typeof propsSchema>;

export const contract = defineHook({
  hook: "support-search",
  kind: "island",
  whenToUse:
    "The search form of the customer-service pages (customer service, FAQ, delivery times, the results page): once per page. It searches the FAQ and the products; for anything else, link to a page.",
  partial: {
    name: "support-search",
    key: "search",
    params: z.strictObject({
      query: z
        .string()
        .max(100)
        .optional()
        .describe("The words shown in the field: the results page's query"),
      id: z
        .string()
        .min(1)
        .default("support-search")
        .describe("What the form's ids start with, unique on the page"),
    }),
  },
  props: propsSchema,
  parts: {
    'form[data-ajax-trigger="input"]': {
      required: true,
      description: "The GET form to the results page, which the ajax hook also sends as the shopper types",
    },
    'input[name="q"]': { required: true, description: "The field, which becomes the combobox" },
    'ul[role="listbox"]': {
      required: true,
      description: "The suggestions (the form's data-ajax-update target), hidden until there are some",
    },
    "[data-support-search-status]": {
      required: true,
      description: "The polite live region that says how many suggestions there are",
    },
  },
  companions: {
    "data-search-href": "On a suggestion (partials/support-search-suggestions): the page it opens",
    "data-search-kind":
      'On a suggestion: "faq", "product", "page", or "all" for the one that leads to the results page',
    "data-search-position": "On a suggestion: its place in the list, for analytics",
    "data-search-total": 'On the "all" suggestion: how many results the query has',
  },
});
