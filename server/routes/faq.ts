import type { FastifyInstance, FastifyRequest } from "fastify";
import { answerParts, type FaqContent, type FaqQuestion, type FaqTopic, plainText } from "../domain/faq.ts";
import { breadcrumbList, type Crumb } from "../domain/structured-data.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { originOf } from "../http/rendering/origin.ts";
import { faqVersion } from "../http/rendering/page-variants.ts";
import type { Services } from "../http/services.ts";
import { type Locale, locales, perLocale } from "../i18n/locales.ts";

/** The FAQ navigation's data (partials/faq.eta): topics with their questions, the current page marked. */
export interface FaqNavigation {
  label: string;
  /** The link to the FAQ overview, first in the list on FAQ pages (the support home has its own). */
  home?: { text: string; href: string; current: boolean };
  topics: Array<{
    id: string;
    title: string;
    count: string;
    open: boolean;
    overview: { text: string; href: string; current: boolean };
    questions: Array<{ text: string; href: string; current: boolean }>;
  }>;
}

export interface FaqPlace {
  topicId: string;
  questionId?: string;
}

/**
 * The navigation as a page shows it: on a FAQ page (current given: a topic, a question or
 * the overview) that page is marked and its topic open; elsewhere every topic is closed.
 */
export function faqNavigation(
  services: Services,
  locale: Locale,
  current?: FaqPlace | "overview",
): FaqNavigation {
  const { faq, i18n } = services;
  const t = i18n.t[locale];
  const place = current === "overview" ? undefined : current;
  return {
    label: t("faq.navLabel"),
    ...(current
      ? {
          home: {
            text: t("faq.navHome"),
            href: i18n.routes.pathFor("faq", locale),
            current: current === "overview",
          },
        }
      : {}),
    topics: faq.topics(locale).map((topic) => {
      const here = topic.id === place?.topicId;
      return {
        id: topic.id,
        title: topic.title,
        count: t("faq.questionCount", { count: topic.questions.length }),
        open: here,
        overview: {
          text: t("faq.topicOverview", { topic: topic.title }),
          href: i18n.routes.pathFor("faqTopic", locale, { topic: topic.slug }),
          current: here && place?.questionId === undefined,
        },
        questions: topic.questions.map((q) => ({
          text: q.question,
          href: i18n.routes.pathFor("faqQuestion", locale, { topic: topic.slug, question: q.slug }),
          current: here && q.id === place?.questionId,
        })),
      };
    }),
  };
}

/**
 * The FAQ: an overview of every topic, a page per topic with its questions and answers,
 * and a page per question. Addresses contain /faq/ in both languages; the topic and
 * question slugs come from the content files.
 */
export function faqRoutes(app: FastifyInstance, services: Services, routes: LocalizedRoutes): void {
  const route = routes.on(app);
  const { faq, i18n } = services;
  const known = new Set(i18n.routes.ids);
  /** What the files cannot check on their own: the shop's routes. */
  const fitsTheShop = (content: FaqContent) => {
    const unknown = content.linkedRoutes().filter((id) => !known.has(id));
    if (unknown.length > 0)
      throw new Error(`faq: an answer links to route:${unknown[0]}, which does not exist`);
    // A topic slug equal to the overview's last segment would never be reachable.
    for (const locale of locales) {
      const overview = i18n.routes.pathFor("faq", locale).split("/").pop();
      if (content.topicBySlug(locale, overview ?? "")) {
        throw new Error(`faq: the ${locale} topic slug "${overview}" is taken by the FAQ overview's address`);
      }
    }
  };
  // At start-up a problem stops the shop; later an editor's broken save is logged and the
  // last good content stays.
  fitsTheShop(faq);
  faq.followChanges({
    check: fitsTheShop,
    report: (problem) => app.log.error(problem),
    reread: (message) => app.log.info(message),
  });

  // The ids come from the content files; fitsTheShop has checked each against the table.
  const answer = (locale: Locale, question: FaqQuestion) =>
    question.answer.map((p) => answerParts(p, (id) => i18n.routes.pathForUntyped(id, locale)));

  const crumbs = (locale: Locale, topic?: FaqTopic, question?: FaqQuestion) => {
    const t = i18n.t[locale];
    return [
      { label: t("customerService.title"), href: i18n.routes.pathFor("customerService", locale) },
      { label: t("faq.title"), href: topic ? i18n.routes.pathFor("faq", locale) : undefined },
      ...(topic
        ? [
            {
              label: topic.title,
              href: question ? i18n.routes.pathFor("faqTopic", locale, { topic: topic.slug }) : undefined,
            },
          ]
        : []),
      ...(question ? [{ label: question.question }] : []),
    ];
  };

  /** The breadcrumbs as JSON-LD: the same trail, with absolute addresses. */
  const crumbData = (request: FastifyRequest, trail: Crumb[]) => {
    const origin = originOf(request, services);
    const locale = request.locale;
    const here = i18n.routes.pathForUntyped(
      request.routeOptions.config.routeId as string,
      locale,
      request.params as Record<string, string>,
    );
    return breadcrumbList(
      origin,
      { label: i18n.t[locale]("layout.home"), href: i18n.routes.pathFor("home", locale) },
      trail,
      origin + here,
    );
  };

  const topicOf = (request: FastifyRequest) =>
    faq.topicBySlug(request.locale, (request.params as { topic: string }).topic);

  route("faq", "GET", async (request, reply) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    return reply.page(
      "pages/faq",
      () => ({
        title: t("faq.title"),
        description: t("faq.description"),
        crumbs: crumbs(locale),
        structuredData: crumbData(request, crumbs(locale)),
        faqNav: faqNavigation(services, locale, "overview"),
      }),
      { cacheable: true, ...faqVersion(services) },
    );
  });

  route("faqTopic", "GET", async (request, reply) => {
    const locale = request.locale;
    const topic = topicOf(request);
    if (!topic) return reply.callNotFound();
    const t = i18n.t[locale];
    return reply.page(
      "pages/faq-topic",
      () => ({
        title: `${topic.title} – ${t("faq.title")}`,
        description: topic.intro,
        topic,
        questions: topic.questions.map((q) => ({
          id: q.id,
          question: q.question,
          href: i18n.routes.pathFor("faqQuestion", locale, { topic: topic.slug, question: q.slug }),
          answer: answer(locale, q),
        })),
        crumbs: crumbs(locale, topic),
        structuredData: crumbData(request, crumbs(locale, topic)),
        faqNav: faqNavigation(services, locale, { topicId: topic.id }),
      }),
      {
        cacheable: true,
        ...faqVersion(services),
        alternateParams: perLocale((l) => ({ topic: faq.topicById(l, topic.id)?.slug ?? topic.slug })),
      },
    );
  });

  route("faqQuestion", "GET", async (request, reply) => {
    const locale = request.locale;
    const topic = topicOf(request);
    const slug = (request.params as { question: string }).question;
    const question = topic?.questions.find((q) => q.slug === slug);
    if (!topic || !question) return reply.callNotFound();
    const t = i18n.t[locale];
    return reply.page(
      "pages/faq-question",
      () => ({
        title: `${question.question} – ${t("faq.title")}`,
        description: plainText(question.answer[0] ?? ""),
        topic,
        question,
        answer: answer(locale, question),
        topicHref: i18n.routes.pathFor("faqTopic", locale, { topic: topic.slug }),
        crumbs: crumbs(locale, topic, question),
        structuredData: crumbData(request, crumbs(locale, topic, question)),
        faqNav: faqNavigation(services, locale, { topicId: topic.id, questionId: question.id }),
      }),
      {
        cacheable: true,
        ...faqVersion(services),
        alternateParams: perLocale((l) => {
          const other = faq.topicById(l, topic.id);
          const otherQuestion = other?.questions.find((q) => q.id === question.id);
          return { topic: other?.slug ?? topic.slug, question: otherQuestion?.slug ?? question.slug };
        }),
      },
    );
  });
}
