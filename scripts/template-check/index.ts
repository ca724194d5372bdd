import { resolve } from "node:path";
import { contracts } from "../../islands/contracts.ts";
import { registry } from "../../islands/registry.ts";
import { paths } from "../../server/app.ts";
import { projectRoot } from "../../server/config.ts";
import { ajaxTargets } from "./checks/ajax-targets.ts";
import { analyticsEvents } from "./checks/analytics-events.ts";
import { conformance } from "./checks/conformance.ts";
import { duplicateIds } from "./checks/duplicate-ids.ts";
import { hookAttributes } from "./checks/hook-attributes.ts";
import { links, RouteProbe } from "./checks/links.ts";
import { metaDescriptions } from "./checks/meta-description.ts";
import { templateErrors } from "./checks/template-errors.ts";
import { localeDifferences, missingTranslations } from "./checks/translations.ts";
import { validationAttributes } from "./checks/validation-attributes.ts";
import { Conformance } from "./conformance.ts";
import type { PageView } from "./dom.ts";
import { journeyPages, journeyRoutes } from "./journey.ts";
import { knownHooks } from "./known-hooks.ts";
import { type Place, TemplateIndex } from "./locate.ts";
import { notFound, publicPages } from "./pages.ts";
import { isHtml, type RenderedPage, render } from "./render.ts";
import { type Finding, type Problem, ProblemList } from "./report.ts";
import { openShop } from "./shop.ts";
import { loadValidationRules } from "./validation-rules.ts";

export interface CheckOptions {
  /** The views folder to check; the project's own by default. */
  views?: string;
  /**
   * Only the pages of these routes (route ids, or "notFound" for the 404 page), for a quick
   * look at what one template renders; every page when absent.
   */
  routes?: readonly string[];
}

export interface CheckResult {
  problems: Problem[];
  /** Pages rendered and checked, every language counted. */
  pages: number;
  /** Pattern-library examples on those pages. */
  examples: number;
  ms: number;
  /** What was not checked, and where the validation rules' requirements came from. */
  notes: string[];
}

const pageLabel = (page: RenderedPage) => ({
  locale: page.locale,
  url: page.method === "GET" ? page.url : `${page.method} ${page.url}`,
});

/** Renders the shop's pages in-process and reports every problem once, at the template line that wrote it. */
export async function checkTemplates(options: CheckOptions = {}): Promise<CheckResult> {
  const started = performance.now();
  const views = options.views ?? paths.views;
  const wanted = (id: string) => !options.routes || options.routes.includes(id);
  const shop = await openShop(views);
  try {
    const templates = new TemplateIndex(views);
    const known = knownHooks({ contracts, registry, islandsDir: resolve(projectRoot, "islands") });
    const validation = await loadValidationRules();
    const validator = new Conformance();
    const probe = new RouteProbe(shop);
    const metaDescription = metaDescriptions(shop.app.i18n.messages);
    const list = new ProblemList();
    const notes: string[] = [];

    const locate = (finding: Finding, page: RenderedPage): Place | undefined => {
      if (finding.place) return finding.place;
      const found = finding.texts
        ? templates.find(finding.texts, page.template)
        : finding.element
          ? templates.findElement(finding.element, page.template)
          : undefined;
      return found ?? (page.template ? { file: page.template } : undefined);
    };

    // Every page is rendered before any link is followed: a followed link would put its
    // page in the shop's page cache, and a cached answer does not say its template.
    const pages: RenderedPage[] = [];
    const { pages: requests, unfilled } = publicPages(shop, wanted);
    for (const request of requests) {
      const { page, response } = await render(shop, request);
      if (!isHtml(response) || (response.statusCode >= 300 && response.statusCode < 400)) continue;
      const expected = request.routeId === notFound ? 404 : 200;
      if (response.statusCode === expected || response.statusCode >= 500) pages.push(page);
      else
        list.add({
          place: undefined,
          page: pageLabel(page),
          message: `answered ${response.statusCode}, not the page`,
        });
    }
    if (journeyRoutes.some(wanted)) {
      const journey = await journeyPages(shop, wanted);
      pages.push(...journey.pages);
      probe.laterCookie = journey.pages.at(-1)?.cookie ?? "";
      for (const failure of journey.failures) {
        list.add({
          place: undefined,
          page: { locale: "nl", url: failure.url },
          message: `the check's shopper could not go on (${failure.step}): ${failure.message}`,
        });
      }
    }
    for (const route of unfilled) notes.push(`not checked: route ${route}`);

    let examples = 0;
    for (const page of pages) {
      if (page.status >= 500) {
        list.add({
          place: page.template ? { file: page.template } : undefined,
          page: pageLabel(page),
          message: `the page failed to render (${page.status}): ${page.failure ?? "see the shop's log"}`,
        });
        continue;
      }
      const { messages, document } = await validator.validate(page.html, page.url);
      if (!document) continue;
      const view: PageView = { page, document };
      if (page.routeId === "patterns") examples += document.querySelectorAll("[data-example]").length;
      const findings: Finding[] = [
        ...templateErrors(view, views),
        ...hookAttributes(view, known),
        ...analyticsEvents(view),
        ...(await ajaxTargets(view)),
        ...validationAttributes(view, validation),
        ...missingTranslations(view, shop.app.i18n.messages),
        ...(await links(view, probe)),
        ...duplicateIds(view),
        ...metaDescription(view),
        ...conformance(view, messages, page.routeId === "patterns"),
      ];
      for (const finding of findings) {
        list.add({ place: locate(finding, page), page: pageLabel(page), message: finding.message });
      }
    }
    for (const finding of localeDifferences()) list.add({ place: finding.place, message: finding.message });
    if (!validation.source.startsWith("islands/")) {
      notes.push(`data-val parameters each rule needs: ${validation.source}`);
    }

    return { problems: list.problems, pages: pages.length, examples, ms: performance.now() - started, notes };
  } finally {
    await shop.close();
  }
}
