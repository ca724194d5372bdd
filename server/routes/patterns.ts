import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { fromPriceCents } from "../domain/catalogue.ts";
import type { FieldError, FormValues } from "../forms/form.ts";
import { patternExampleForm } from "../forms/pattern-example-form.ts";
import { type LiveRoutes, localizedRoute } from "../http/localized-routes.ts";
import { isAjax } from "../http/pages.ts";
import type { Services } from "../http/services.ts";
import { checkPostcode } from "./remote-checks.ts";

const minute = 60_000;
const day = 24 * 60 * minute;
const tipNumbers = ["1", "2", "3"];

/**
 * The pattern library: every hook and partial, live, with the markup that produces it,
 * in both languages. It is the content editors' reference; each widget adds its example.
 * The example endpoints below answer like real ones (fragment for ajax, page without
 * JavaScript, 303 after a post, 422 with errors) but store nothing.
 */
export function patternRoutes(app: FastifyInstance, services: Services, live: LiveRoutes): void {
  const { catalogue, config, i18n } = services;
  if (!config.patternLibrary) return;
  const product = catalogue.products.find((p) => p.freeShipping) ?? catalogue.products[0];
  const href = (request: FastifyRequest, id: string) => i18n.routes.pathFor(id, request.locale);

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
