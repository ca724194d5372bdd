import type { HookDefinition, IslandModule } from "./runtime/types.ts";

/**
 * A React island's module, fetched together with the shared React runtime. The separate
 * dynamic import keeps React in a chunk of its own (one download, cached across every
 * React island and page) instead of inside the first island that uses it, and lets both
 * downloads run at once.
 */
function withReact(load: () => Promise<IslandModule>): () => Promise<IslandModule> {
  return () => Promise.all([import("./react/mount.tsx"), load()]).then(([, island]) => island);
}

/**
 * Every hook the templates may emit, and the module that brings it to life. Each load()
 * is a dynamic import, so esbuild gives it its own chunk and a page downloads only the
 * modules whose hooks it has. The hook names are a contract with views/ (see the
 * pattern library); scripts/budget.ts reads this list too.
 */
export const registry: HookDefinition[] = [
  {
    kind: "behaviour",
    name: "sticky-header",
    selector: "[data-sticky-header]",
    load: () => import("./sticky-header/sticky-header.ts"),
  },
  {
    kind: "behaviour",
    name: "site-menu",
    selector: "details[data-site-menu]",
    load: () => import("./site-menu/site-menu.ts"),
  },
  {
    kind: "behaviour",
    name: "lazy-load",
    selector: "[data-lazy-src], [data-lazy-background]",
    load: () => import("./lazy-load/lazy-load.ts"),
  },
  {
    kind: "behaviour",
    name: "analytics",
    // Also wherever an island is: islands report shopper actions through it (analytics/track.ts).
    selector: "[data-analytics], [data-island]",
    load: () => import("./analytics/analytics.ts"),
  },
  {
    kind: "behaviour",
    name: "relative-time",
    selector: "time[data-relative-time]",
    load: () => import("./relative-time/relative-time.ts"),
  },
  {
    kind: "behaviour",
    name: "ajax",
    selector: '[data-ajax="true"]',
    load: () => import("./ajax/ajax.ts"),
  },
  {
    kind: "behaviour",
    name: "validation",
    selector: 'form [data-val="true"]',
    load: () => import("./validation/validation.ts"),
  },
  {
    kind: "behaviour",
    name: "password-strength",
    selector: "input[data-password-strength]",
    load: () => import("./password-strength/password-strength.ts"),
  },
  {
    kind: "island",
    name: "cart-count",
    react: false,
    load: () => import("./cart-count/cart-count.ts"),
  },
  {
    kind: "island",
    name: "payment-status",
    react: false,
    load: () => import("./payment-status/payment-status.ts"),
  },
  {
    kind: "island",
    name: "product-options",
    react: false,
    load: () => import("./product-options/product-options.ts"),
  },
  {
    kind: "island",
    name: "add-to-cart-bar",
    react: false,
    load: () => import("./add-to-cart-bar/add-to-cart-bar.ts"),
  },
  {
    kind: "island",
    name: "viewer360",
    react: true,
    nearViewport: "250px",
    load: withReact(() => import("./viewer360/viewer360.tsx")),
  },
  {
    kind: "island",
    name: "carousel",
    react: false,
    // The generic lazy loader's margin: its slide images (which it loads within 150 px sideways)
    // wait until the carousel itself is as near as any other image on the page.
    nearViewport: "250px",
    load: () => import("./carousel/carousel.ts"),
  },
  {
    kind: "island",
    name: "share",
    react: false,
    load: () => import("./share/share.ts"),
  },
  {
    kind: "island",
    name: "faq",
    react: false,
    load: () => import("./faq/faq.ts"),
  },
  {
    kind: "island",
    name: "support-search",
    react: false,
    load: () => import("./support-search/support-search.ts"),
  },
  {
    kind: "island",
    name: "delivery-times",
    react: true,
    // The server has rendered the table: React (95.9 kB) waits for a touch or an idle moment.
    mountWhen: ["interaction", "idle"],
    load: withReact(() => import("./delivery-times/delivery-times.tsx")),
  },
  {
    kind: "island",
    name: "tabs",
    react: true,
    load: withReact(() => import("./tabs/tabs.tsx")),
  },
  {
    kind: "island",
    name: "modal",
    react: true,
    load: withReact(() => import("./modal/modal.tsx")),
  },
  {
    kind: "island",
    name: "tooltip",
    react: false,
    load: () => import("./tooltip/tooltip.ts"),
  },
  {
    kind: "island",
    name: "transform",
    react: false,
    load: () => import("./transform/transform.ts"),
  },
  {
    kind: "island",
    name: "photo-upload",
    react: false,
    load: () => import("./photo-upload/photo-upload.ts"),
  },
];
