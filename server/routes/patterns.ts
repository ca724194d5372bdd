import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { fromPriceCents } from "../domain/catalogue.ts";
import { checkoutSteps } from "../domain/checkout-steps.ts";
import { formatValue, isPhotoBook } from "../domain/photo-books.ts";
import { acceptedPhotoTypes } from "../domain/photo-type.ts";
import { recommendedChoice } from "../domain/product-options.ts";
import { shareLinks } from "../domain/share-links.ts";
import { tabSlug } from "../domain/tab-slug.ts";
import type { FieldError, FormValues } from "../forms/form.ts";
import { patternExampleForm } from "../forms/pattern-example-form.ts";
import { type LiveRoutes, localizedRoute } from "../http/localized-routes.ts";
import { isAjax } from "../http/pages.ts";
import type { Services } from "../http/services.ts";
import { choiceText } from "../i18n/product-texts.ts";
import type { RouteArgs, RouteId } from "../i18n/routes.ts";
import { megabytes, uploadLimits } from "../uploads/upload-limits.ts";
import { faqNavigation } from "./faq.ts";
import type { ProductPageRenderer } from "./product.ts";
import { checkPostcode } from "./remote-checks.ts";
import { readFramesVersion } from "./viewer-frames.ts";

const minute = 60_000;
const day = 24 * 60 * minute;
const tipNumbers = ["1", "2", "3"];

/**
 * The pattern library: every hook and partial, live, with the markup that produces it,
 * in both languages. It is the content editors' reference; each widget adds its example.
 * The example endpoints below answer like real ones (fragment for ajax, page without
 * JavaScript, 303 after a post, 422 with errors) but store nothing.
 */
export function patternRoutes(
  app: FastifyInstance,
  services: Services,
  live: LiveRoutes,
  productPages: ProductPageRenderer,
): void {
  const { catalogue, config, i18n } = services;
  if (!config.patternLibrary) return;
  const product = catalogue.products.find((p) => p.freeShipping) ?? catalogue.products[0];
  const href = <Id extends RouteId>(request: FastifyRequest, id: Id, ...params: RouteArgs<Id>) =>
    i18n.routes.pathFor(id, request.locale, ...params);
  const framesVersion = readFramesVersion(config.framesDir);
  const photoBook = catalogue.products.find(isPhotoBook);

  const showLibrary = (
    request: FastifyRequest,
    reply: FastifyReply,
    state: { values?: FormValues; errors?: FieldError[]; thanks?: string; deleted?: boolean } = {},
    status = 200,
  ) => {
    const t = i18n.t[request.locale];
    const now = Date.now();
    return reply.page(
      "pages/patterns",
      {
        title: t("patterns.title"),
        exampleForm: patternExampleForm,
        formState: { values: state.values ?? {}, errors: state.errors ?? [], thanks: state.thanks },
        tipDeleted: state.deleted ?? false,
        example: {
          product: product && { product, fromPriceCents: fromPriceCents(product), eager: false },
          viewer: product && {
            frontId: product.fronts[product.recommended.orientation],
            alt: t("product.imageAlt", {
              product: product.name[request.locale],
              orientation: t(`orientation.${product.recommended.orientation}`),
            }),
            version: framesVersion,
            imageHost: config.imageHost,
          },
          // The carousel and share examples: every product as a card, and the share links builder.
          cards: catalogue.products.map((p) => ({
            product: p,
            fromPriceCents: fromPriceCents(p),
            eager: false,
          })),
          shareLinks,
          // The product-options island with the product page's own data, posting to the real cart.
          productOptions: product && productPages.pageData(request, product, recommendedChoice(product)),
          // The FAQ list with its first question as the current page, and the live delivery times.
          faqNav: (() => {
            const topic = services.faq.topics(request.locale)[0];
            const question = topic?.questions[0];
            return faqNavigation(
              services,
              request.locale,
              topic && { topicId: topic.id, questionId: question?.id },
            );
          })(),
          deliveryTimes: {
            overview: (() => {
              try {
                return services.deliveryTimes.overview(request.locale, services.now());
              } catch {
                return undefined;
              }
            })(),
            endpoint: href(request, "deliveryTimesData"),
          },
          // Issue 8's widgets: tabs, modals (from a page and from this page), tooltip, transform, uploader.
          tabs: {
            id: "pattern-tabs",
            label: t("patterns.tabs.label"),
            sections: ["a", "b", "c"].map((key) => ({
              key,
              label: t(`patterns.tabs.labels.${key}`),
              id: tabSlug(t(`patterns.tabs.labels.${key}`)),
            })),
          },
          modalPage: live.has("subscriptionInfo")
            ? i18n.routes.pathFor("subscriptionInfo", request.locale, {
                topic: t("subscription.info.topics.cancel.slug"),
              })
            : undefined,
          photoUpload:
            photoBook && live.has("editorStart")
              ? {
                  product: photoBook,
                  format: formatValue(recommendedChoice(photoBook)),
                  upload: {
                    url: i18n.routes.pathFor("editorUpload", request.locale),
                    accept: acceptedPhotoTypes,
                    maxMegabytes: megabytes(uploadLimits.maxFileBytes),
                    perRequest: uploadLimits.maxFilesPerRequest,
                    staged: [],
                  },
                }
              : undefined,
          // A tip from the cart's tips block; it adds to the real cart and shows the cart region here.
          cartTip: product && {
            product,
            fromPriceCents: fromPriceCents(product),
            eager: false,
            add: {
              choice: recommendedChoice(product),
              label: choiceText(t, {
                orientation: product.recommended.orientation,
                sizeId: product.recommended.size,
              }),
              update: "#pattern-cart-tip-result",
            },
          },
          checkoutSteps,
          times: {
            ago: [5 * minute, 3 * 60 * minute, 2 * day, 95 * day, 800 * day].map((ms) => new Date(now - ms)),
            remaining: [
              new Date(now + 3 * day + minute),
              new Date(now + 5 * 60 * minute + minute),
              new Date(now - day),
            ],
          },
        },
      },
      { noindex: true, status, fragment: "partials/forms/pattern-example-region" },
    );
  };

  localizedRoute(app, i18n.routes, live, "patterns", "GET", async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const thanks = typeof query.thanks === "string" ? query.thanks.slice(0, 80) : undefined;
    return showLibrary(request, reply, { thanks, deleted: query.deleted === "1" });
  });

  localizedRoute(app, i18n.routes, live, "patternsTip", "GET", async (request, reply) => {
    const t = i18n.t[request.locale];
    const n = String((request.query as Record<string, unknown>).n ?? "1");
    const tip = tipNumbers.includes(n) ? n : "1";
    return reply.page(
      "pages/pattern-tip",
      { title: t("patterns.tipTitle"), tip: t(`patterns.tips.${tip}`), stamp: new Date().toISOString() },
      { noindex: true, fragment: "partials/pattern-tip" },
    );
  });

  // The method-override example: DELETE from the enhanced form, POST without JavaScript.
  const deleteTip = async (request: FastifyRequest, reply: FastifyReply) => {
    if (isAjax(request)) {
      return reply.page(
        "pages/pattern-tip",
        { title: "", deleted: true },
        { fragment: "partials/pattern-tip" },
      );
    }
    return reply.redirect(`${href(request, "patterns")}?deleted=1#method-override`, 303);
  };
  localizedRoute(app, i18n.routes, live, "patternsTip", "DELETE", deleteTip);
  localizedRoute(app, i18n.routes, live, "patternsTip", "POST", deleteTip);

  localizedRoute(app, i18n.routes, live, "patternsForm", "POST", async (request, reply) => {
    const t = i18n.t[request.locale];
    const values = patternExampleForm.values(request.body);
    const errors = await patternExampleForm.validate(values, t, async (field, all) =>
      field === "postcode" ? checkPostcode(all, t) : true,
    );
    if (errors.length > 0) return showLibrary(request, reply, { values, errors }, 422);
    if (isAjax(request)) return showLibrary(request, reply, { thanks: values.name });
    const query = new URLSearchParams({ thanks: values.name ?? "" });
    return reply.redirect(`${href(request, "patterns")}?${query}#ajax-form`, 303);
  });
}
