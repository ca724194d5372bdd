import type { FastifyReply, FastifyRequest } from "fastify";
import { addToCartForm, maxQuantity } from "../forms/add-to-cart-form.ts";
import type { FieldError, FormValues } from "../forms/form.ts";
import { writeCartId } from "../http/cookies/cart-cookie.ts";
import { readShopperId } from "../http/cookies/shopper-cookie.ts";
import { overClientLimit, retryText } from "../http/limits/client-limits.ts";
import type { Services } from "../http/services.ts";
import type { Locale } from "../i18n/locales.ts";
import { choiceText } from "../i18n/product-texts.ts";
import type { PhotoProject } from "../store/photo-project-repository.ts";
import { isRandomId } from "../store/random-id.ts";
import { cartForAdding } from "./shopper-cart.ts";

/** The cart's part for lines with a project: the cart's add route hands such a post here. */
export interface ProjectCart {
  add(request: FastifyRequest, reply: FastifyReply, body: Record<string, unknown>): Promise<FastifyReply>;
}

/** What a refused project line comes back on: the editor's pages (server/routes/editor.ts). */
export interface ProjectPages {
  showProject(
    request: FastifyRequest,
    reply: FastifyReply,
    project: PhotoProject,
    cart: { values: FormValues; errors: FieldError[] },
    status: number,
  ): Promise<FastifyReply>;
  projectHref(locale: Locale, projectId: string): string;
  startHref(locale: Locale): string;
}

/**
 * A photo book with its project into the cart: the project must be this shopper's, with
 * photos in it, in a format that is still sold; then it is a cart change like any other
 * (the limits of cart.ts), a line of its own.
 */
export function projectCartLines(services: Services, pages: ProjectPages): ProjectCart {
  const { i18n, projects, catalogue, carts } = services;
  return {
    async add(request, reply, body) {
      const locale = request.locale;
      const t = i18n.t[locale];
      const owner = readShopperId(request);
      const id = body.project;
      const project = owner && isRandomId(id) ? await projects.get(owner, id) : undefined;
      const product = project ? catalogue.product(project.productId) : undefined;
      const size = product?.sizes.find(
        (s) => s.orientation === project?.orientation && s.id === project?.sizeId,
      );
      const problem = (key: "missing" | "empty" | "unavailable") =>
        reply.page(
          "pages/editor-cart-problem",
          {
            title: t(key === "empty" ? "editor.cart.emptyTitle" : "editor.cart.missingTitle"),
            heading: t(key === "empty" ? "editor.cart.emptyTitle" : "editor.cart.missingTitle"),
            message:
              key === "unavailable"
                ? t("product.unavailable")
                : t(key === "empty" ? "editor.cart.empty" : "editor.cart.missing"),
            projectHref: project ? pages.projectHref(locale, project.id) : undefined,
            startHref: pages.startHref(locale),
          },
          { status: 422, noindex: true },
        );
      if (!project || !product || !size) return problem("missing");
      if (!size.available) return problem("unavailable");
      if (project.photoCount === 0) return problem("empty");

      const values = addToCartForm.values(body);
      const errors = await addToCartForm.validate(values, t, undefined, request.locale);
      if (errors.length > 0) return pages.showProject(request, reply, project, { values, errors }, 422);

      const refused = (message: string, status = 422) =>
        pages.showProject(
          request,
          reply,
          project,
          { values, errors: [{ field: "quantity", message }] },
          status,
        );
      // A change to the cart like any other: CART_CHANGE_RATE_LIMIT a minute per client.
      const changeWait = await overClientLimit(services.limits.cartChanges, request, reply, "cart change");
      if (changeWait !== undefined) {
        return refused(t("cart.notices.tooManyChanges", { retry: retryText(t, changeWait) }), 429);
      }
      const cart = await cartForAdding(services, request, reply);
      if ("wait" in cart) {
        return refused(t("cart.notices.tooManyCarts", { retry: retryText(t, cart.wait) }), 429);
      }
      const cartId = cart.cartId;
      if (cart.created) writeCartId(reply, cartId);
      const item = {
        productId: product.id,
        orientation: size.orientation,
        sizeId: size.id,
        projectId: project.id,
      };
      const { linesPerCart } = services.config.limits;
      if (!(await carts.add(cartId, item, Number(values.quantity), maxQuantity, linesPerCart))) {
        const line = (await carts.lines(cartId)).find((l) => l.projectId === project.id);
        // No line of this project yet: it was the number of lines that stopped it.
        if (!line) return refused(t("cart.notices.lines", { max: linesPerCart }));
        return refused(
          t("cart.notices.limit", {
            product: product.name[locale],
            choice: choiceText(t, item),
            max: maxQuantity,
            current: line.quantity,
          }),
        );
      }
      services.counters.count("funnel.cart_add", locale, product.id);
      return reply.redirect(i18n.routes.pathFor("cartContents", locale), 303);
    },
  };
}
