import addToCartBar from "./add-to-cart-bar/examples.ts";
import ajax from "./ajax/examples.ts";
import analytics from "./analytics/examples.ts";
import carousel from "./carousel/examples.ts";
import cartCount from "./cart-count/examples.ts";
import deliveryTimes from "./delivery-times/examples.ts";
import faq from "./faq/examples.ts";
import lazyLoad from "./lazy-load/examples.ts";
import modal from "./modal/examples.ts";
import passwordStrength from "./password-strength/examples.ts";
import paymentStatus from "./payment-status/examples.ts";
import photoUpload from "./photo-upload/examples.ts";
import productOptions from "./product-options/examples.ts";
import relativeTime from "./relative-time/examples.ts";
import type { HookExamples } from "./runtime/define-examples.ts";
import type { HookContract } from "./runtime/define-hook.ts";
import share from "./share/examples.ts";
import siteMenu from "./site-menu/examples.ts";
import stickyHeader from "./sticky-header/examples.ts";
import supportSearch from "./support-search/examples.ts";
import tabs from "./tabs/examples.ts";
import tooltip from "./tooltip/examples.ts";
import transform from "./transform/examples.ts";
import validation from "./validation/examples.ts";
import viewer360 from "./viewer360/examples.ts";

/**
 * Every hook's contract and examples, in the registry's order: the server checks partials
 * against them, the pattern library and docs/hooks.md are generated from them, and the
 * tests render the examples. Server-side only (it pulls zod); the browser gets each
 * contract's compact shape through its island module.
 */
export const hookExamples: readonly HookExamples[] = [
  stickyHeader,
  siteMenu,
  lazyLoad,
  analytics,
  relativeTime,
  ajax,
  validation,
  passwordStrength,
  cartCount,
  productOptions,
  addToCartBar,
  viewer360,
  carousel,
  share,
  faq,
  supportSearch,
  deliveryTimes,
  tabs,
  modal,
  tooltip,
  transform,
  photoUpload,
  paymentStatus,
] as unknown as HookExamples[];

export const contracts: readonly HookContract[] = hookExamples.map((entry) => entry.contract);
