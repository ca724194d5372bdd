import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { contract as productOptions } from "../../islands/product-options/contract.ts";
import type { PropsOf } from "../../islands/runtime/define-hook.ts";
import { type Category, fromPriceCents, type Product, type ProductSize } from "../domain/catalogue.ts";
import { formatPrice } from "../domain/money.ts";
import { isPhotoBook } from "../domain/photo-books.ts";
import { priceList } from "../domain/prices.ts";
import {
  orientationsOf,
  pricesOf,
  recommendedChoice,
  resolveOptions,
  sizesIn,
} from "../domain/product-options.ts";
import { shareLinks } from "../domain/share-links.ts";
import {
  breadcrumbList,
  manufacturerNode,
  manufacturerOf,
  merchantReturnPolicy,
  shippingDetails,
} from "../domain/structured-data.ts";
import { frameUrl } from "../domain/viewer-frames.ts";
import { addToCartForm, maxQuantity } from "../forms/add-to-cart-form.ts";
import type { FieldError, FormValues } from "../forms/form.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { originOf } from "../http/rendering/origin.ts";
import { partOfTheDay } from "../http/rendering/page-variants.ts";
import type { PageData } from "../http/rendering/pages.ts";
import type { Services } from "../http/services.ts";
import { intlLocale, type Locale, locales, perLocale } from "../i18n/locales.ts";
import { choiceText, workingDaysText } from "../i18n/product-texts.ts";
import { readFramesVersion } from "./viewer-frames.ts";

/** What the add-to-cart region shows besides the form: the errors of a refused post, or what was just added. */
export interface AddToCartState {
  values?: FormValues;
  errors?: FieldError[];
  added?: { quantity: number; cartCount: number };
}

type PageState = AddToCartState & {
  notice?: boolean;
  explicit?: boolean;
  /** The moment the dispatch dates are computed for; the shop's clock when absent. */
  now?: Date;
};

export interface ProductPageRenderer {
  /** Finds the product a posted form names; undefined for a tampered or outdated form. */
  find(productId: unknown): Product | undefined;
  /** The product page's data, also for the pattern library's live example of its partials. */
  pageData(request: FastifyRequest, product: Product, choice: ProductSize, state?: PageState): PageData;
  render(
    request: FastifyRequest,
    reply: FastifyReply,
    product: Product,
    choice: ProductSize,
    state?: PageState,
    status?: number,
  ): Promise<FastifyReply>;
}

const relatedCount = 8;

/** The price block's id on the product page (partials/product-options). */
const productOfferId = "product-offer";
/**
 * A view from the side for the image gallery, 80 degrees from the front. An odd frame,
 * so small screens reuse the viewer's own frame (they load every second one) instead of
 * downloading one more image.
 */
const sideFrame = 9;

/** "Exclusief fotoboek – Liggend, 30x21 cm": the page's title, which the options island keeps current. */
const productTitle = (name: string, choiceLabel: string) => `${name} – ${choiceLabel}`;

/** The address's parameters other than the option (utm_source and the like), kept across a redirect. */
function otherParameters(url: string, optionNames: { orientation: string; size: string }): string {
  const at = url.indexOf("?");
  if (at < 0) return "";
  const params = new URLSearchParams(url.slice(at + 1));
  params.delete(optionNames.orientation);
  params.delete(optionNames.size);
  return params.toString();
}

export function productRoutes(
  app: FastifyInstance,
  services: Services,
  routes: LocalizedRoutes,
): ProductPageRenderer {
  const route = routes.on(app);
  const { catalogue, config, i18n, links } = services;
  const framesVersion = readFramesVersion(config.framesDir);

  const related = (product: Product) => {
    const same = catalogue.productsIn(product.category).filter((p) => p !== product);
    const others = catalogue.products.filter((p) => p.category !== product.category);
    return [...same, ...others].slice(0, relatedCount).map((p, i) => ({
      kind: "product",
      card: { product: p, fromPriceCents: fromPriceCents(p), eager: false, list: "related", position: i + 1 },
    }));
  };

  /** Everything the product-options island needs to switch options without asking the server. */
  const optionsProps = (product: Product, locale: Locale): PropsOf<typeof productOptions> => {
    const t = i18n.t[locale];
    const prices = (s: ProductSize) => pricesOf(product, s);
    const name = product.name[locale];
    return {
      productId: product.id,
      path: links.product(product, locale),
      query: links.queryNames(locale),
      alternates: locales.map((l) => ({
        locale: l,
        path: links.product(product, l),
        query: links.queryNames(l),
        slugs: Object.fromEntries(orientationsOf(product).map((o) => [o, links.orientationSlug(o, l)])),
      })),
      orientations: orientationsOf(product).map((o) => ({
        id: o,
        slug: links.orientationSlug(o, locale),
        label: t(`orientation.${o}`),
        frontId: product.fronts[o] as string,
      })),
      sizes: product.sizes.map((s) => ({
        id: s.id,
        orientation: s.orientation,
        priceCents: s.priceCents,
        available: s.available,
        label: t("product.size", { size: s.id }),
        price: formatPrice(prices(s).unitCents, locale),
        choice: choiceText(t, { orientation: s.orientation, sizeId: s.id }),
        title: productTitle(name, choiceText(t, { orientation: s.orientation, sizeId: s.id })),
      })),
      recommended: { orientation: product.recommended.orientation, size: product.recommended.size },
      texts: {
        recommended: t("product.recommended"),
        unavailableShort: t("product.unavailableShort"),
        available: t("product.available"),
        unavailable: t("product.unavailable"),
      },
    };
  };

  /**
   * When this product is sent if ordered now. A failure here must not cost the shopper
   * the product page: the production times are still shown, only the dates are left out.
   */
  const dispatchOf = (request: FastifyRequest, product: Product, now = services.now()) => {
    try {
      return {
        standard: services.deliveryTimes.dispatch(product, "standard", request.locale, now),
        rush: services.deliveryTimes.dispatch(product, "rush", request.locale, now),
      };
    } catch (err) {
      request.log.error({ err }, "expected dispatch could not be computed");
      return undefined;
    }
  };

  const workingDays = (locale: Locale, d: { min: number; max: number }) => workingDaysText(i18n.t[locale], d);
  const countryNames = perLocale((l) => new Intl.DisplayNames([intlLocale[l]], { type: "region" }));

  /** The product-safety section (GPSR): the type number, who makes it and how to use it safely. */
  const safetyOf = (product: Product, locale: Locale) => {
    const maker = manufacturerOf(product, services.company, locale);
    return {
      model: product.safety.model,
      manufacturer: {
        name: maker.name,
        lines: [
          maker.address.street,
          `${maker.address.postcode} ${maker.address.city}`,
          countryNames[locale].of(maker.address.countryCode) ?? maker.address.countryCode,
        ],
        email: maker.email,
      },
      information: product.safety.information?.[locale],
    };
  };

  const renderer: ProductPageRenderer = {
    find: (productId) => (typeof productId === "string" ? catalogue.product(productId) : undefined),

    pageData(request, product, choice, state = {}) {
      const locale = request.locale;
      const t = i18n.t[locale];
      const category = catalogue.category(product.category) as Category;
      const origin = originOf(request, services);
      const imageOrigin = config.imageHost || origin;
      const name = product.name[locale];
      const orientationLabel = (o: string) => t(`orientation.${o}`);
      const front = product.fronts[choice.orientation] as string;
      const frame = (frontId: string, size: 320 | 720, n: number) =>
        frameUrl(config.imageHost, frontId, size, n, framesVersion);
      const option = (s: ProductSize) => choiceText(t, { orientation: s.orientation, sizeId: s.id });
      const choiceLabel = option(choice);
      const recommended = recommendedChoice(product);
      const pageUrl = origin + links.choice(product, choice, locale);
      const { unitCents, rushCents } = pricesOf(product, choice);

      const images = [
        ...orientationsOf(product).map((o) => {
          const id = product.fronts[o] as string;
          return {
            kind: "image",
            src: frame(id, 720, 1),
            srcset: `${frame(id, 320, 1)} 320w, ${frame(id, 720, 1)} 720w`,
            sizes: "(max-width: 480px) 320px, 720px",
            alt: t("product.imageAlt", { product: name, orientation: orientationLabel(o) }),
            width: 720,
            height: 720,
          };
        }),
        {
          kind: "image",
          src: frame(front, 720, sideFrame),
          srcset: `${frame(front, 320, sideFrame)} 320w, ${frame(front, 720, sideFrame)} 720w`,
          sizes: "(max-width: 480px) 320px, 720px",
          alt: t("product.imageAngle", { product: name, orientation: orientationLabel(choice.orientation) }),
          width: 720,
          height: 720,
        },
        {
          kind: "image",
          src: product.image,
          alt: t("product.illustration", { product: name }),
          width: 400,
          height: 300,
        },
      ];

      const offerUrl = (s: ProductSize) => origin + links.choice(product, s, locale);
      const productPath = links.product(product, locale);
      const categoryPath = links.category(category, locale);
      const crumbs = [{ label: category.name[locale], href: categoryPath }, { label: name }];
      // The same for every size of the product: worked out once per page.
      const shipping = shippingDetails(product, priceList.shipping);
      const returnPolicy = merchantReturnPolicy();
      const productData = {
        "@context": "https://schema.org",
        "@type": "Product",
        name,
        description: product.summary[locale],
        sku: `${product.id}-${choice.orientation}-${choice.id}`,
        image: orientationsOf(product).map((o) => {
          const url = frameUrl(imageOrigin, product.fronts[o] as string, 720, 1, framesVersion);
          return url;
        }),
        brand: { "@type": "Brand", name: t("site.name") },
        mpn: product.safety.model,
        manufacturer: manufacturerNode(manufacturerOf(product, services.company, locale)),
        offers: product.sizes.map((s) => ({
          "@type": "Offer",
          name: option(s),
          sku: `${product.id}-${s.orientation}-${s.id}`,
          url: offerUrl(s),
          priceCurrency: "EUR",
          price: (s.priceCents / 100).toFixed(2),
          availability: s.available ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
          itemCondition: "https://schema.org/NewCondition",
          shippingDetails: shipping,
          hasMerchantReturnPolicy: returnPolicy,
        })),
      };
      const structuredData = [
        productData,
        breadcrumbList(
          origin,
          { label: t("layout.home"), href: i18n.routes.pathFor("home", locale) },
          crumbs,
          origin + productPath,
        ),
      ];

      return {
        title: productTitle(name, choiceLabel),
        description: product.summary[locale],
        product,
        category,
        choice,
        choiceLabel,
        front,
        isRecommended: choice === recommended,
        recommendation: {
          label: option(recommended),
          reason: product.recommended.reason[locale],
        },
        notice: state.notice ? t("product.invalidOptions") : undefined,
        orientations: orientationsOf(product).map((o) => ({
          value: links.orientationSlug(o, locale),
          label: orientationLabel(o),
          selected: o === choice.orientation,
        })),
        sizes: sizesIn(product, choice.orientation).map((s) => ({
          value: s.id,
          label: t("product.size", { size: s.id }),
          selected: s === choice,
          recommended: s === recommended,
          available: s.available,
        })),
        queryNames: links.queryNames(locale),
        crumbs,
        safety: safetyOf(product, locale),
        productPath,
        categoryPath,
        unitCents,
        rushCents,
        standardDays: workingDays(locale, product.production.standard),
        rushDays: product.production.rush ? workingDays(locale, product.production.rush) : undefined,
        rushSurchargeCents: product.production.rush?.surchargeCents,
        dispatch: dispatchOf(request, product, state.now),
        optionsProps: optionsProps(product, locale),
        viewer: {
          productId: product.id,
          frontId: front,
          alt: t("product.imageAlt", { product: name, orientation: orientationLabel(choice.orientation) }),
          version: framesVersion,
          imageHost: config.imageHost,
          // The alt text follows the orientation when the island switches fronts.
          alts: Object.fromEntries(
            orientationsOf(product).map((o) => [
              product.fronts[o],
              t("product.imageAlt", { product: name, orientation: orientationLabel(o) }),
            ]),
          ),
        },
        imagesCarousel: {
          id: "product-images",
          label: t("product.imagesLabel", { product: name }),
          autoplay: false,
          slides: images,
        },
        relatedCarousel: {
          id: "related-products",
          label: t("product.relatedLabel"),
          autoplay: true,
          slides: related(product),
        },
        share: {
          url: pageUrl,
          title: name,
          text: product.summary[locale],
          links: shareLinks({ url: pageUrl, title: name, text: product.summary[locale] }),
        },
        addToCart: {
          form: addToCartForm,
          maxQuantity,
          values: state.values ?? { quantity: "1" },
          errors: state.errors ?? [],
          added: state.added,
        },
        openGraph: {
          type: "product",
          title: name,
          description: product.summary[locale],
          url: pageUrl,
          image: frameUrl(imageOrigin, front, 720, 1, framesVersion),
          imageAlt: t("product.imageAlt", {
            product: name,
            orientation: orientationLabel(choice.orientation),
          }),
          locale: intlLocale[locale].replace("-", "_"),
          priceAmount: (unitCents / 100).toFixed(2),
          priceCurrency: "EUR",
        },
        structuredData,
        // On a phone the CSS shows the price above the image, which comes first in the source:
        // a first paint of half the page would put the image there and then push it down.
        firstPaintNeeds: productOfferId,
        offerId: productOfferId,
        // Photo books: the editor starts from the chosen format, and an example spread shows what a page holds.
        editorStart: isPhotoBook(product)
          ? {
              action: i18n.routes.pathFor("editorStart", locale),
              productParam: t("editor.query.product"),
              productSlug: product.slug[locale],
              orientation: links.orientationSlug(choice.orientation, locale),
              size: choice.id,
            }
          : undefined,
        spread: isPhotoBook(product)
          ? { id: "example-spread", button: t("spread.open"), title: t("spread.title") }
          : undefined,
      };
    },

    render(request, reply, product, choice, state = {}, status = 200) {
      const category = catalogue.category(product.category) as Category;
      // One moment for the cache key and the dates, so a copy never holds another part of the day's dates.
      const now = state.now ?? services.now();
      return reply.page(
        "pages/product",
        () => renderer.pageData(request, product, choice, { ...state, now }),
        {
          status,
          fragment: "partials/add-to-cart",
          alternateParams: perLocale((l) => ({ category: category.slug[l], product: product.slug[l] })),
          alternateQuery: state.explicit ? perLocale((l) => links.query(choice, l)) : undefined,
          cacheable: true,
          ...partOfTheDay(services, now),
        },
      );
    },
  };

  route("product", "GET", async (request, reply) => {
    const locale = request.locale;
    const params = request.params as { category: string; product: string };
    const product = catalogue.products.find((p) => p.slug[locale] === params.product);
    if (!product) return reply.callNotFound();
    const category = catalogue.category(product.category) as Category;
    const query = request.url.includes("?") ? request.url.slice(request.url.indexOf("?")) : "";
    if (category.slug[locale] !== params.category) {
      // An old or mistyped category in the address: the product has one home.
      return reply.redirect(links.product(product, locale) + query, 301);
    }
    const wish = links.readRequest(request.query, locale);
    const resolution = resolveOptions(product, wish);
    if (resolution.kind === "redirect") {
      const others = otherParameters(request.url, links.queryNames(locale));
      return reply.redirect(links.choice(product, resolution.choice, locale) + (others && `&${others}`), 302);
    }
    const explicit =
      resolution.kind === "show" && (wish.orientation !== undefined || wish.size !== undefined);
    return renderer.render(request, reply, product, resolution.choice, {
      notice: resolution.kind === "notice",
      explicit,
    });
  });

  return renderer;
}
