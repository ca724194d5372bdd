import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hookExamples } from "../../islands/contracts.ts";
import { type HookContract, parameterRows } from "../../islands/runtime/define-hook.ts";
import { fromPriceCents } from "../domain/catalogue.ts";
import { checkoutSteps } from "../domain/checkout-steps.ts";
import { formatValue, isPhotoBook } from "../domain/photo-books.ts";
import { acceptedPhotoTypes } from "../domain/photo-type.ts";
import { recommendedChoice } from "../domain/product-options.ts";
import { tabSlug } from "../domain/tab-slug.ts";
import type { FieldError, FormValues } from "../forms/form.ts";
import { patternExampleForm } from "../forms/pattern-example-form.ts";
import { patternRuleGroups, patternRulesForm } from "../forms/pattern-rules-form.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { originOf } from "../http/rendering/origin.ts";
import { isAjax } from "../http/rendering/pages.ts";
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
  routes: LocalizedRoutes,
  productPages: ProductPageRenderer,
): void {
  const route = routes.on(app);
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
    state: {
      values?: FormValues;
      errors?: FieldError[];
      thanks?: string;
      deleted?: boolean;
      greeting?: { name: string; missing: boolean; answer: string };
      /** The validation hook's rule examples: what was posted and what the server found. */
      rules?: { values?: FormValues; errors?: FieldError[]; done?: boolean };
    } = {},
    status = 200,
    fragment = "partials/forms/pattern-example-region",
  ) => {
    const t = i18n.t[request.locale];
    const now = Date.now();
    return reply.page(
      "pages/patterns",
      {
        title: t("patterns.title"),
        // The ajax form example's state (partials/forms/pattern-greeting): its fragment reads it too.
        greeting: state.greeting ?? { name: t("patterns.ajax.form.value"), missing: false, answer: "" },
        // Every hook from its contract and examples (views/partials/pattern-hook.eta).
        hooks: hookExamples,
        parameterRows: (contract: HookContract) =>
          contract.partial
            ? parameterRows(contract.partial.params, `${contract.partial.key}.`)
            : parameterRows(contract.attributes),
        exampleForm: patternExampleForm,
        formState: { values: state.values ?? {}, errors: state.errors ?? [], thanks: state.thanks },
        // partials/forms/pattern-rules-region; the remote example starts at the page's own country.
        rulesForm: patternRulesForm,
        rulesGroups: patternRuleGroups,
        rulesState: {
          values: state.rules?.values ?? { country: request.locale === "de" ? "DE" : "NL" },
          errors: state.rules?.errors ?? [],
          done: state.rules?.done ?? false,
        },
        example: {
          // The ajax method-override example, after its plain POST (no JavaScript) came back.
          tipDeleted: state.deleted ?? false,
          product: product && { product, fromPriceCents: fromPriceCents(product), eager: false },
          viewer: product && {
            productId: product.id,
            frontId: product.fronts[product.recommended.orientation],
            alt: t("product.imageAlt", {
              product: product.name[request.locale],
              orientation: t(`orientation.${product.recommended.orientation}`),
            }),
            version: framesVersion,
            imageHost: config.imageHost,
          },
          // The carousel's product cards: every product.
          cards: catalogue.products.map((p) => ({
            product: p,
            fromPriceCents: fromPriceCents(p),
            eager: false,
          })),
          // The share example shares this page, as a page's share block does.
          sharePage: {
            url: originOf(request, services) + href(request, "patterns"),
            title: t("patterns.title"),
          },
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
          // The subscription page's widgets: tabs, modals (from a page and from this page), tooltip, transform, uploader.
          tabs: {
            id: "pattern-tabs",
            label: t("patterns.tabs.label"),
            sections: ["a", "b", "c"].map((key) => ({
              key,
              label: t(`patterns.tabs.labels.${key}`),
              id: tabSlug(t(`patterns.tabs.labels.${key}`)),
            })),
          },
          modalPage: routes.live.has("subscriptionInfo")
            ? i18n.routes.pathFor("subscriptionInfo", request.locale, {
                topic: t("subscription.info.topics.cancel.slug"),
              })
            : undefined,
          photoUpload:
            photoBook && routes.live.has("editorStart")
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
      { noindex: true, status, fragment },
    );
  };

  route("patterns", "GET", async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const thanks = typeof query.thanks === "string" ? query.thanks.slice(0, 80) : undefined;
    const t = i18n.t[request.locale];
    const greeting =
      typeof query.greeting === "string"
        ? {
            name: query.greeting.slice(0, 80),
            missing: query.greeting === "",
            answer:
              query.greeting === ""
                ? ""
                : t(`patterns.ajax.form.answers.${query.action === "save" ? "save" : "check"}`, {
                    name: query.greeting.slice(0, 80),
                  }),
          }
        : undefined;
    return showLibrary(request, reply, {
      thanks,
      deleted: query.deleted === "1",
      greeting,
      rules: query.rules === "ok" ? { done: true } : undefined,
    });
  });

  route("patternsTip", "GET", async (request, reply) => {
    const t = i18n.t[request.locale];
    const n = String((request.query as Record<string, unknown>).n ?? "1");
    const tip = tipNumbers.includes(n) ? n : "1";
    return reply.page(
      "pages/pattern-tip",
      {
        title: t("patterns.ajax.tipTitle"),
        tip: t(`patterns.ajax.tips.${tip}`),
        stamp: new Date().toISOString(),
      },
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
  route("patternsTip", "DELETE", deleteTip);
  route("patternsTip", "POST", deleteTip);

  // The ajax hook's smallest form: a refused post (no name) comes back with its form and message.
  route("patternsGreeting", "POST", async (request, reply) => {
    const t = i18n.t[request.locale];
    const body = (request.body ?? {}) as Record<string, unknown>;
    const name = typeof body.name === "string" ? body.name.trim().slice(0, 80) : "";
    const action = body.action === "save" ? "save" : "check";
    if (!isAjax(request)) {
      const query = new URLSearchParams(name ? { greeting: name, action } : { greeting: "" });
      return reply.redirect(`${href(request, "patterns")}?${query}#ajax`, 303);
    }
    return showLibrary(
      request,
      reply,
      {
        greeting: {
          name,
          missing: !name,
          answer: name ? t(`patterns.ajax.form.answers.${action}`, { name }) : "",
        },
      },
      name ? 200 : 422,
      "partials/forms/pattern-greeting",
    );
  });

  route("patternsForm", "POST", async (request, reply) => {
    const t = i18n.t[request.locale];
    const values = patternExampleForm.values(request.body);
    const errors = await patternExampleForm.validate(
      values,
      t,
      async (field, all) => (field === "postcode" ? checkPostcode(all, t) : true),
      request.locale,
    );
    if (errors.length > 0) return showLibrary(request, reply, { values, errors }, 422);
    if (isAjax(request)) return showLibrary(request, reply, { thanks: values.name });
    const query = new URLSearchParams({ thanks: values.name ?? "" });
    return reply.redirect(`${href(request, "patterns")}?${query}#ajax-form`, 303);
  });

  // The validation hook's rule examples: the same rules as the browser, in the page's notation.
  const rulesFragment = "partials/forms/pattern-rules-region";
  route("patternsRules", "POST", async (request, reply) => {
    const t = i18n.t[request.locale];
    const values = patternRulesForm.values(request.body);
    const errors = await patternRulesForm.validate(
      values,
      t,
      async (field, all) => (field === "postcode" ? checkPostcode(all, t) : true),
      request.locale,
    );
    if (errors.length > 0)
      return showLibrary(request, reply, { rules: { values, errors } }, 422, rulesFragment);
    if (isAjax(request))
      return showLibrary(request, reply, { rules: { values, done: true } }, 200, rulesFragment);
    return reply.redirect(`${href(request, "patterns")}?rules=ok#rules-form-region`, 303);
  });
}
