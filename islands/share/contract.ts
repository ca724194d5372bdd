import type { ShareLink } from "../../server/domain/share-links.ts";
import { defineHook, z } from "../runtime/define-hook.ts";

export const contract = defineHook({
  hook: "share",
  kind: "island",
  whenToUse:
    "Links to share the page (Facebook, Twitter, WhatsApp, e-mail), plus the browser's own share sheet where it has one. One block per page, near what is shared.",
  partial: {
    name: "share",
    key: "share",
    params: z.strictObject({
      url: z.string().url().describe("The absolute address to share: the page's canonical address"),
      title: z.string().min(1).describe("The title the networks show with the link"),
      text: z.string().optional().describe("A line about it, for the e-mail body; the title when absent"),
      links: z
        .array(z.custom<ShareLink>((value) => typeof value === "object" && value !== null))
        .min(1)
        .describe(
          "(ShareLink[]) The networks' links for this url, title and text: shareLinks() from server/domain/share-links.ts",
        ),
    }),
  },
  // Attributes, not props: the product page points the block at another option as the shopper picks it (share-target.ts).
  attributes: z.object({
    "data-share-url": z
      .string()
      .optional()
      .describe("The address the share sheet shares; the page's address when absent"),
    "data-share-title": z
      .string()
      .optional()
      .describe("The title it shares; the document's title when absent"),
    "data-share-text": z.string().optional().describe("The line of text it shares"),
  }),
  parts: {
    "button[data-share-native]": {
      required: true,
      description:
        "The button for the browser's own share sheet, hidden until the browser has one: the island's whole work",
    },
    "a[data-analytics-network]": {
      required: false,
      description: "A network's link, pointed at the chosen option on the product page",
    },
  },
});
