import { locales } from "../i18n/locales.ts";
import type { PublicPage } from "./public-pages.ts";

/**
 * The texts crawlers read: the sitemap (sitemaps.org 0.9, with hreflang alternates as
 * Google reads them from the xhtml:link element) and robots.txt (RFC 9309).
 */

const xmlEntities: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};
const xml = (text: string) => text.replace(/[&<>"']/g, (c) => xmlEntities[c] as string);

/** One <url> per page and language, each naming every language's version and the default (the first). */
export function sitemapXml(origin: string, pages: readonly PublicPage[]): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
  ];
  for (const page of pages) {
    const alternates = [
      ...locales.map((l) => ({ lang: l as string, href: origin + page.paths[l] })),
      { lang: "x-default", href: origin + page.paths[locales[0]] },
    ].map((a) => `    <xhtml:link rel="alternate" hreflang="${a.lang}" href="${xml(a.href)}"/>`);
    for (const l of locales) {
      lines.push("  <url>", `    <loc>${xml(origin + page.paths[l])}</loc>`, ...alternates, "  </url>");
    }
  }
  lines.push("</urlset>", "");
  return lines.join("\n");
}

export function robotsTxt(disallowed: readonly string[], sitemapUrl: string): string {
  return [
    "# Carts, accounts, orders, payments, search and the answers to forms are no one's to index.",
    "User-agent: *",
    ...disallowed.map((prefix) => `Disallow: ${prefix}`),
    "",
    `Sitemap: ${sitemapUrl}`,
    "",
  ].join("\n");
}
