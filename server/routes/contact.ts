import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { shopTimeZone } from "../domain/shop-time-zone.ts";
import { contactForm, contactMessageOf, honeypotField } from "../forms/contact-form.ts";
import type { FieldError, FormValues } from "../forms/form.ts";
import { type FormRateLimit, overRateLimit } from "../http/limits/form-rate-limit.ts";
import { limitKey } from "../http/limits/shared-counters.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { isAjax } from "../http/rendering/pages.ts";
import type { Services } from "../http/services.ts";
import { intlLocale, locales } from "../i18n/locales.ts";
import { contactMails } from "../mail/contact-mails.ts";

/** Carries the address to the thank-you page after the redirect, so it never appears in a URL. */
export const contactSentCookie = "contact_sent";

type Notice = "failed" | "rateLimited";

interface FormState {
  values?: FormValues;
  errors?: FieldError[];
  notice?: Notice;
  /** After an enhanced submit: the thank-you text with this address. */
  thanks?: string;
}

/**
 * The contact form. Without JavaScript: post, then 303 to the thank-you page. With it:
 * the same post from the ajax form, answered with the form's region (the thank-you text,
 * or the form with its messages). A message is stored with its two mails in one
 * transaction before anything is promised; the mail sender delivers them afterwards.
 */
export function contactRoutes(app: FastifyInstance, services: Services, routes: LocalizedRoutes): void {
  const route = routes.on(app);
  const { i18n, config, contacts } = services;
  // Per client address (shared by every instance with REDIS_URL). Messages that pass the
  // form's checks count against the limit; a post the form refuses stores nothing, so a
  // shopper without JavaScript who corrects a few mistakes is not locked out. Every post
  // counts against a far higher allowance, which still stops a robot that floods the form
  // with refused posts.
  const tenMinutes = 10 * 60_000;
  const messageLimit = app.createRateLimit({
    max: config.contactRateLimit,
    timeWindow: tenMinutes,
    keyGenerator: limitKey("contact-messages"),
  });
  const postLimit = app.createRateLimit({
    max: config.contactRateLimit * 5,
    timeWindow: tenMinutes,
    keyGenerator: limitKey("contact-posts"),
  });
  const dateTimes = Object.fromEntries(
    Object.entries(intlLocale).map(([l, tag]) => [
      l,
      new Intl.DateTimeFormat(tag, { dateStyle: "long", timeStyle: "short", timeZone: shopTimeZone }),
    ]),
  );

  const show = (request: FastifyRequest, reply: FastifyReply, state: FormState, status = 200) => {
    const t = i18n.t[request.locale];
    return reply.page(
      "pages/contact",
      {
        title: t("contact.title"),
        description: t("contact.description"),
        contact: {
          form: contactForm,
          values: state.values ?? {},
          errors: state.errors ?? [],
          notice: state.notice,
          thanks: state.thanks,
          honeypot: honeypotField,
        },
      },
      { status, fragment: "partials/contact-form-region", cacheable: status === 200 && !state.thanks },
    );
  };

  route("contact", "GET", async (request, reply) => show(request, reply, {}));

  const thanked = (request: FastifyRequest, reply: FastifyReply, email: string) => {
    reply.header("cache-control", "private, no-store");
    if (isAjax(request)) return show(request, reply, { thanks: email });
    // Sent only to the thank-you page, in either language (the shopper may switch there).
    for (const locale of locales) {
      reply.setCookie(contactSentCookie, email, {
        signed: true,
        httpOnly: true,
        sameSite: "lax",
        secure: "auto",
        path: i18n.routes.pathFor("contactThanks", locale),
        maxAge: 10 * 60,
      });
    }
    return reply.redirect(i18n.routes.pathFor("contactThanks", request.locale), 303);
  };

  route("contact", "POST", async (request, reply) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    const values = contactForm.values(request.body);
    reply.header("cache-control", "private, no-store");

    const overLimit = (limit: FormRateLimit) => overRateLimit(limit, request, reply, "contact form");
    const refuse = () => show(request, reply, { values, notice: "rateLimited" }, 429);

    if (await overLimit(postLimit)) return refuse();
    const errors = await contactForm.validate(values, t, undefined, request.locale);
    if (errors.length > 0) return show(request, reply, { values, errors }, 422);
    if (await overLimit(messageLimit)) return refuse();
    const message = contactMessageOf(values, locale);

    const body = (request.body ?? {}) as Record<string, unknown>;
    const trap = body[honeypotField];
    if (typeof trap !== "string" || trap !== "") {
      // A robot filled in (or left out) the field no person sees: answer as usual, keep nothing.
      request.log.info("contact form: honeypot filled in, message dropped");
      return thanked(request, reply, message.email);
    }

    try {
      await contacts.store(
        message,
        (stored) =>
          contactMails(stored, t, {
            supportEmail: config.supportEmail,
            dateTime: (date) => dateTimes[locale]?.format(date) ?? date.toISOString(),
          }),
        services.now(),
      );
    } catch (err) {
      request.log.error({ err }, "contact message not stored");
      return show(request, reply, { values, notice: "failed" }, 503);
    }
    services.mailQueued();
    return thanked(request, reply, message.email);
  });

  route("contactThanks", "GET", async (request, reply) => {
    const locale = request.locale;
    const raw = request.cookies[contactSentCookie];
    const unsigned = raw ? request.unsignCookie(raw) : undefined;
    if (!unsigned?.valid || !unsigned.value) {
      // Nothing was sent from this browser lately (or the cookie expired): offer the form.
      return reply.redirect(i18n.routes.pathFor("contact", locale), 303);
    }
    const t = i18n.t[locale];
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/contact-thanks",
      { title: t("contact.thanksTitle"), email: unsigned.value },
      { noindex: true },
    );
  });
}
