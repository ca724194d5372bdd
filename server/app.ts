import { resolve } from "node:path";
import fastifyCompress from "@fastify/compress";
import fastifyFormbody from "@fastify/formbody";
import fastifyMultipart from "@fastify/multipart";
import fastifyRateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import fastifyView from "@fastify/view";
import { Eta } from "eta";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { contracts } from "../islands/contracts.ts";
import { passwordBackOff } from "./accounts/password-back-off.ts";
import { type Config, projectRoot } from "./config.ts";
import type { Catalogue } from "./domain/catalogue.ts";
import { loadCompany } from "./domain/company.ts";
import { deliveryTimes } from "./domain/delivery-overview.ts";
import { parseCutOff } from "./domain/delivery-times.ts";
import { type Faq, loadFaq } from "./domain/faq.ts";
import { shopLegalPages } from "./domain/shop-legal-pages.ts";
import { planById } from "./domain/subscription-plans.ts";
import { loadWithdrawalRights } from "./domain/withdrawal-rights.ts";
import { analyticsCounters } from "./http/analytics/analytics-counters.ts";
import { registerFunnelCounting } from "./http/analytics/funnel-counting.ts";
import { registerPrivateCaching } from "./http/caching/private-caching.ts";
import { readyAnswers } from "./http/caching/ready-answers.ts";
import { registerGracefulClose } from "./http/graceful-close.ts";
import { clientLimits } from "./http/limits/client-limits.ts";
import { sharedCounters } from "./http/limits/shared-counters.ts";
import { uploadBytesPerClient } from "./http/limits/upload-bytes.ts";
import { localizedRoutes } from "./http/localized-routes.ts";
import { multipartOptions } from "./http/multipart-form.ts";
import { assetResolver, loadManifest } from "./http/rendering/assets.ts";
import { frameworkErrors, registerErrorPages } from "./http/rendering/error-pages.ts";
import { registerPages } from "./http/rendering/pages.ts";
import { productLinks } from "./http/rendering/product-links.ts";
import { registerCartErrorPage } from "./http/rendering/store-error-page.ts";
import { checkPartials, type TemplateErrorMode } from "./http/rendering/template-contracts.ts";
import { registerAccountHoldings } from "./http/security/account-holdings.ts";
import { registerSecurity } from "./http/security/headers.ts";
import { applyMethodOverride } from "./http/security/method-override.ts";
import { registerSignedIn } from "./http/security/signed-in.ts";
import { trustProxyOption } from "./http/security/trusted-proxies.ts";
import type { Services } from "./http/services.ts";
import { registerSpeculationRules } from "./http/speculation/speculation-rules.ts";
import { createI18n, loadMessages } from "./i18n/index.ts";
import { scheduleCleanUp } from "./jobs/clean-up.ts";
import { scheduleRenewals } from "./jobs/subscription-renewal.ts";
import { mailFolder } from "./mail/mail-files.ts";
import { byHandPayments } from "./payments/by-hand-payments.ts";
import { paymentProvider } from "./payments/index.ts";
import { orderPayments, queueOrderExpiredMail } from "./payments/order-payments.ts";
import { shopOrigin, subscriptionCharges } from "./payments/subscription-charges.ts";
import { queueSubscriptionExpiredMail, subscriptionPayments } from "./payments/subscription-payments.ts";
import { subscriptionPlanChanges } from "./payments/subscription-plan-changes.ts";
import { accountRoutes } from "./routes/account.ts";
import { accountAddressesRoutes } from "./routes/account-addresses.ts";
import { accountCreateRoutes } from "./routes/account-create.ts";
import { accountOrdersRoutes } from "./routes/account-orders.ts";
import { accountPhotosRoutes } from "./routes/account-photos.ts";
import { accountSubscriptionRoutes } from "./routes/account-subscription.ts";
import { analyticsRoutes } from "./routes/analytics.ts";
import { cartRoutes } from "./routes/cart.ts";
import { cartAddressRoutes } from "./routes/cart-address.ts";
import { cartCountRoutes } from "./routes/cart-count.ts";
import { cartOverviewRoutes } from "./routes/cart-overview.ts";
import { catalogueRoutes } from "./routes/catalogue.ts";
import { contactRoutes } from "./routes/contact.ts";
import { contractFormRoutes } from "./routes/contract-forms.ts";
import { crawlerFileRoutes } from "./routes/crawler-files.ts";
import { customerServiceRoutes } from "./routes/customer-service.ts";
import { deliveryTimesRoutes } from "./routes/delivery-times.ts";
import { editorRoutes } from "./routes/editor.ts";
import { faqRoutes } from "./routes/faq.ts";
import { healthRoutes } from "./routes/health.ts";
import { homeRoutes } from "./routes/home.ts";
import { legalRoutes } from "./routes/legal.ts";
import { orderClaimRoutes } from "./routes/order-claim.ts";
import { orderConfirmationRoutes } from "./routes/order-confirmation.ts";
import { patternRoutes } from "./routes/patterns.ts";
import { paymentWebhookRoutes } from "./routes/payment-webhook.ts";
import { privacyRoutes } from "./routes/privacy.ts";
import { productRoutes } from "./routes/product.ts";
import { remoteCheckRoutes } from "./routes/remote-checks.ts";
import { searchRoutes } from "./routes/search.ts";
import { signInRoutes } from "./routes/sign-in.ts";
import { siteFileRoutes } from "./routes/site-files.ts";
import { subscriptionRoutes } from "./routes/subscription.ts";
import { subscriptionPayByHandRoutes } from "./routes/subscription-pay-by-hand.ts";
import { subscriptionPaymentRoutes } from "./routes/subscription-payment.ts";
import { testPaymentRoutes } from "./routes/test-payment.ts";
import { uploadRoutes } from "./routes/uploads.ts";
import { viewerFrameRoutes } from "./routes/viewer-frames.ts";
import { accountRepository } from "./store/account-repository.ts";
import { addressBookRepository } from "./store/address-book-repository.ts";
import { analyticsRepository } from "./store/analytics-repository.ts";
import { cartRepository } from "./store/cart-repository.ts";
import { contactRepository } from "./store/contact-repository.ts";
import type { Database } from "./store/database.ts";
import { orderLifecycleRepository } from "./store/order-lifecycle-repository.ts";
import { orderRepository } from "./store/order-repository.ts";
import { photoProjectRepository } from "./store/photo-project-repository.ts";
import { sessionRepository } from "./store/session-repository.ts";
import { signupRepository } from "./store/signup-repository.ts";
import { subscriptionRepository } from "./store/subscription-repository.ts";
import { uploadRepository } from "./store/upload-repository.ts";
import { decodeQueue } from "./uploads/decode-queue.ts";
import { photoIntake } from "./uploads/photo-intake.ts";
import { diskPhotoStorage } from "./uploads/photo-storage.ts";
import { storageQuota } from "./uploads/storage-quota.ts";

declare module "fastify" {
  interface FastifyInstance {
    i18n: import("./i18n/index.ts").I18n;
  }
}

export interface AppOptions {
  config: Config;
  catalogue: Catalogue;
  database: Database;
  logger?: FastifyServerOptions["logger"];
  /** The FAQ content; read from config.faqDir when not given. */
  faq?: Faq;
  /** The clock (tests pin it); the real time when not given. */
  now?: () => Date;
  /** Called after mail was queued: the mail sender's wake(). Without it, mail waits for the next poll. */
  mailQueued?: () => void;
  /** How the shop waits before a slowed answer (sign-in back-off); tests count the waits instead. */
  sleep?: (ms: number) => Promise<void>;
  /** Another views folder (the template check's tests put an editor's mistake in a copy). */
  views?: string;
  /**
   * A partial given wrong parameters: an error box in its place ("box", the default in
   * development) or left out with a log line ("omit", production).
   */
  templateErrors?: TemplateErrorMode;
}

export const paths = {
  views: resolve(projectRoot, "views"),
  locales: resolve(projectRoot, "locales"),
  static: resolve(projectRoot, "static"),
};

/** Builds the whole shop without listening, so tests can drive it through app.inject. */
export async function buildApp({
  config,
  catalogue,
  database,
  logger,
  faq,
  now,
  mailQueued,
  sleep,
  views = paths.views,
  templateErrors,
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
    rewriteUrl: applyMethodOverride,
    routerOptions: { ignoreTrailingSlash: true },
    // A URL that cannot be decoded: the shop's error page, not Fastify's JSON repeating it.
    frameworkErrors,
  });

  const reported = new Set<string>();
  const i18n = createI18n(loadMessages(paths.locales), (key, locale) => {
    if (reported.has(`${locale}:${key}`)) return;
    reported.add(`${locale}:${key}`);
    app.log.warn({ key, locale }, "translation missing");
  });

  const links = productLinks(i18n, catalogue);
  const company = loadCompany();
  const legal = shopLegalPages({ company, catalogue, config, i18n });
  const orders = orderRepository(database.db, database);
  const subscriptions = subscriptionRepository(database.db);
  const clock = now ?? (() => new Date());
  const sessions = sessionRepository(database.db, config.sessions, database);
  const payments = paymentProvider(config, {
    database,
    // The test provider's payment page is the shop's own; absolute when PUBLIC_URL names the shop.
    testCheckoutUrl: (id, locale) =>
      `${config.publicUrl ?? ""}${i18n.routes.pathFor("testPayment", locale, { payment: id })}`,
    log: app.log,
  });
  // The rate limits' counters and the password attempts': in Redis with REDIS_URL, shared
  // by every instance (ADR 0072); in this process's memory without it.
  const counters = await sharedCounters(config.redisUrl, app.log, clock);
  app.addHook("onClose", counters.close);
  // What the subscription's payments share: its store, the provider, the texts and the clock.
  const subscriptionDeps = {
    db: database.db,
    provider: payments,
    subscriptions,
    i18n,
    log: app.log,
    now: now ?? (() => new Date()),
    mailQueued: () => services.mailQueued(),
  };
  const services: Services = {
    config,
    catalogue,
    company,
    database,
    i18n,
    carts: cartRepository(database.db, database),
    uploads: uploadRepository(database.db),
    projects: photoProjectRepository(database.db, database),
    subscriptions,
    accounts: accountRepository(database.db, database),
    sessions,
    addressBook: addressBookRepository(database.db, database),
    signups: signupRepository(database.db, subscriptions),
    passwordBackOff: passwordBackOff(counters),
    sleep: sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    photoStorage: diskPhotoStorage(resolve(config.dataDir, "uploads")),
    orders,
    asset: assetResolver(() => loadManifest(paths.static), config.development),
    links,
    now: now ?? (() => new Date()),
    deliveryTimes: deliveryTimes({
      catalogue,
      t: i18n.t,
      cutOff: parseCutOff(config.orderCutOff),
      productHref: links.product,
    }),
    faq: faq ?? loadFaq(config.faqDir),
    legal,
    withdrawalRights: loadWithdrawalRights(catalogue),
    contacts: contactRepository(database.db),
    mailQueued: mailQueued ?? (() => {}),
    mailFolder: mailFolder(config),
    counters: analyticsCounters({
      write: analyticsRepository(database.db).addDailyCounts,
      now: now ?? (() => new Date()),
      log: app.log,
    }),
    limits: clientLimits(app, config.limits),
    payments,
    orderPayments: orderPayments({
      db: database.db,
      provider: payments,
      orders,
      lifecycle: orderLifecycleRepository(database.db),
      i18n,
      routes: i18n.routes,
      log: app.log,
      now: now ?? (() => new Date()),
      mailQueued: () => services.mailQueued(),
      cutOff: parseCutOff(config.orderCutOff),
      orderLinkSecret: config.cookieSecret,
      legal,
    }),
    subscriptionPayments: subscriptionPayments(subscriptionDeps),
    subscriptionCharges: subscriptionCharges({ ...subscriptionDeps, origin: shopOrigin(config) }),
    byHandPayments: byHandPayments(subscriptionDeps),
    planChanges: subscriptionPlanChanges({ ...subscriptionDeps, origin: shopOrigin(config) }),
  };

  app.decorate("i18n", i18n);
  registerSignedIn(app, sessions, clock);
  registerGracefulClose(app);
  // Retention: abandoned carts, empty projects, staged uploads, raw analytics (one instance at a time).
  scheduleCleanUp(app, {
    database,
    photoStorage: services.photoStorage,
    retention: config.retention,
    // An order that expires unpaid gets its mail in the same transaction.
    onOrderExpired: queueOrderExpiredMail(i18n),
    onSubscriptionExpired: queueSubscriptionExpiredMail(i18n),
    sessions: config.sessions,
    mailQueued: services.mailQueued,
    mailFolder: services.mailFolder,
  });
  // The next periods of running subscriptions, charged on their mandates (one instance at a time).
  scheduleRenewals(app, { database, charges: services.subscriptionCharges });
  // Before any route: each funnel page gets its counting hook as it is added.
  registerFunnelCounting(app, services.counters, catalogue);
  // First of all hooks: a kept answer goes out before anything else runs. Its check's
  // database part is not asked again while nothing has been committed.
  const ready = readyAnswers({ commitMark: database.commitMark });
  ready.serve(app);
  await registerSecurity(app, config);
  // Before any route: every answer names the rules; kept answers keep the header.
  registerSpeculationRules(app, i18n.routes);
  // Before any route reads a cart or shopper cookie: an account's are its sessions' alone.
  registerAccountHoldings(app, services.accounts);
  await app.register(fastifyFormbody);
  // Limits only where a route or form asks for one, per client address, in the counters
  // made before the services (Redis or memory, above).
  await app.register(fastifyRateLimit, { global: false, ...counters.rateLimit });
  // Nobody sends compressed request bodies: no decompression hook on every request.
  await app.register(fastifyCompress, { threshold: 1024, globalDecompression: false });
  // Cache-Control and Vary: Cookie on every answer, after Set-Cookie is written and before a copy is kept.
  registerPrivateCaching(app);
  ready.keep(app);
  await app.register(fastifyStatic, {
    root: paths.static,
    prefix: "/static/",
    cacheControl: false,
    setHeaders(reply, filePath) {
      // Build output carries its content hash in the name, so it never changes under a URL.
      const hashed =
        filePath.includes(`${resolve(paths.static, "build")}/`) && !filePath.endsWith("manifest.json");
      reply.header("cache-control", hashed ? "public, max-age=31536000, immutable" : "public, max-age=3600");
    },
  });

  // In development templates are read on every render, so an edit shows on reload.
  const eta = new Eta({ views, cache: !config.development, autoEscape: true });
  checkPartials(eta, contracts, {
    mode: templateErrors ?? (config.development ? "box" : "omit"),
    views,
    log: app.log,
    projectRoot,
  });
  await app.register(fastifyView, {
    engine: { eta },
    root: views,
    production: !config.development,
  });

  const routes = localizedRoutes(i18n.routes);
  registerPages(app, services, routes.live);
  registerErrorPages(app, services);

  healthRoutes(app, services);
  crawlerFileRoutes(app, services, routes);
  siteFileRoutes(app, services);
  cartCountRoutes(app, services);
  viewerFrameRoutes(app, services);
  homeRoutes(app, services, routes);
  catalogueRoutes(app, services, routes);
  const productPages = productRoutes(app, services, routes);
  // Two photo decodes at once per instance, one libvips thread each; the rest wait their turn.
  const intake = photoIntake(services.uploads, services.photoStorage, {
    maxPixels: config.uploadMaxPixels,
    decodes: decodeQueue({ slots: 2, timeoutMs: config.uploadDecodeTimeoutMs }),
    storage: storageQuota(() => services.uploads.totalBytes(), config.uploadStorageMaxBytes),
    // A subscriber's photos are the subscription's storage: the plan's room, read-only when suspended.
    subscriberOf: async (ownerId) => {
      const subscription = await subscriptions.planOfOwner(ownerId);
      const plan = subscription && planById(subscription.planId);
      return subscription && plan ? { status: subscription.status, storageGb: plan.storageGb } : undefined;
    },
  });
  // Bytes per client address and hour, in the same store as the rate limits.
  const receiving = {
    intake,
    uploadBytes: uploadBytesPerClient(counters, config.limits.uploadBytesPerClient),
  };
  // Forms with photos are read as streams; only the routes that take them get the parser.
  let projectCart: ReturnType<typeof editorRoutes> | undefined;
  await app.register(async (withFiles) => {
    await withFiles.register(fastifyMultipart, multipartOptions);
    projectCart = editorRoutes(withFiles, services, routes, receiving);
    uploadRoutes(withFiles, services, routes, receiving);
  });
  // The cart and checkout in a scope of their own: a failing database there gets its own page.
  await app.register(async (checkout) => {
    registerCartErrorPage(checkout, services);
    cartRoutes(checkout, services, routes, productPages, projectCart);
    cartAddressRoutes(checkout, services, routes);
    cartOverviewRoutes(checkout, services, routes);
    orderConfirmationRoutes(checkout, services, routes);
    orderClaimRoutes(checkout, services, routes);
  });
  // The built-in test provider's payment page, only when it is the provider: Mollie has its own.
  if (services.payments.name === "test") testPaymentRoutes(app, services, routes, services.payments);
  subscriptionRoutes(app, services, routes);
  subscriptionPaymentRoutes(app, services, routes);
  subscriptionPayByHandRoutes(app, services, routes);
  signInRoutes(app, services, routes);
  accountCreateRoutes(app, services, routes);
  accountRoutes(app, services, routes);
  accountOrdersRoutes(app, services, routes);
  accountPhotosRoutes(app, services, routes);
  accountSubscriptionRoutes(app, services, routes);
  accountAddressesRoutes(app, services, routes);
  privacyRoutes(app, services, routes);
  legalRoutes(app, services, routes);
  contractFormRoutes(app, services, routes);
  remoteCheckRoutes(app, services, routes);
  await paymentWebhookRoutes(app, services, routes);
  customerServiceRoutes(app, services, routes);
  faqRoutes(app, services, routes);
  contactRoutes(app, services, routes);
  deliveryTimesRoutes(app, services, routes);
  searchRoutes(app, services, routes);
  patternRoutes(app, services, routes, productPages);
  await analyticsRoutes(app, services);

  return app;
}
