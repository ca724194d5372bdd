import type { HookDefinition } from "./runtime/types.ts";

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
    name: "lazy-load",
    selector: "[data-lazy-src], [data-lazy-background]",
    load: () => import("./lazy-load/lazy-load.ts"),
  },
  {
    kind: "behaviour",
    name: "analytics",
    selector: "[data-analytics]",
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
];
