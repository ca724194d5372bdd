// Generated from locales/nl.json by `npm run routes:types` (node --import tsx scripts/generate-route-types.ts).
// Do not edit: change the paths in the locale files and run that command again.

/** Per route id, the names of the :params in its path. */
export const routeParamNames = {
  home: [],
  patterns: [],
  patternsTip: [],
  patternsForm: [],
  patternsGreeting: [],
  patternsRules: [],
  postcodeCheck: [],
  paymentWebhook: [],
  category: ["category"],
  product: ["category", "product"],
  customerService: [],
  faq: [],
  faqTopic: ["topic"],
  faqQuestion: ["topic", "question"],
  contact: [],
  contactThanks: [],
  deliveryTimes: [],
  deliveryTimesData: [],
  search: [],
  subscription: [],
  subscriptionSignup: [],
  subscriptionWelcome: [],
  subscriptionConfirm: ["token"],
  subscriptionStatus: ["subscription"],
  subscriptionInfo: ["topic"],
  subscriptionEmailCheck: [],
  editorStart: [],
  editorUpload: [],
  editorPhotoRemove: [],
  editorProject: ["project"],
  editorProjectPhotos: ["project"],
  orderConfirmation: ["number"],
  testPayment: ["payment"],
  cartOverview: [],
  cartAddress: [],
  cartContents: [],
} as const;

export type RouteId = keyof typeof routeParamNames;

/** Exactly the parameters a route's path needs, each one required; {} for a route without any. */
export type RouteParamsOf<Id extends RouteId> = { [Name in (typeof routeParamNames)[Id][number]]: string };
