import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { FastifyInstance } from "fastify";
import { projectRoot } from "../config.ts";
import type { Company } from "../domain/company.ts";
import { originOf } from "../http/rendering/origin.ts";
import type { Services } from "../http/services.ts";
import { defaultLocale, locales } from "../i18n/locales.ts";

/**
 * The files browsers and tools ask for at fixed addresses: the web app manifest, the
 * favicon and security.txt. The same for everyone, so caches may keep them.
 */

const iconPath = "/static/images/icons";
/** scripts/generate-icons.ts draws the icons from static/images/favicon.svg. */
const icons = [
  { src: `${iconPath}/icon-192.png`, sizes: "192x192", type: "image/png", purpose: "any" },
  { src: `${iconPath}/icon-512.png`, sizes: "512x512", type: "image/png", purpose: "any" },
  { src: `${iconPath}/icon-maskable-512.png`, sizes: "512x512", type: "image/png", purpose: "maskable" },
];

/** The manifest holds only the shop's name, which is the same in every language. */
export function webManifest(name: string): Record<string, unknown> {
  return {
    id: "/",
    name,
    short_name: name,
    lang: defaultLocale,
    start_url: "/",
    scope: "/",
    display: "minimal-ui",
    background_color: "#ffffff",
    theme_color: "#1d4e89",
    icons,
  };
}

/** RFC 9116: where to report a weakness, until when this holds, in which languages, and where the file lives. */
export function securityTxt(options: {
  contact: string;
  expires: Date;
  canonical: string;
  company: Company;
}): string {
  return [
    `# ${options.company.name}: how to report a security weakness in this shop.`,
    `Contact: ${options.contact}`,
    `Expires: ${options.expires.toISOString()}`,
    `Preferred-Languages: ${locales.join(", ")}`,
    `Canonical: ${options.canonical}`,
    "",
  ].join("\n");
}

export function siteFileRoutes(app: FastifyInstance, services: Services): void {
  const { company, config, i18n } = services;
  const manifest = JSON.stringify(webManifest(i18n.t[defaultLocale]("site.name")));
  // Read once: the file is part of the release, not content.
  const favicon = readFileSync(resolve(projectRoot, "static/images/icons/favicon.ico"));
  const contact = config.securityContact ?? `mailto:${company.customerService[defaultLocale].email}`;

  app.get("/site.webmanifest", async (_request, reply) =>
    reply.type("application/manifest+json").header("cache-control", "public, max-age=86400").send(manifest),
  );
  app.get("/favicon.ico", async (_request, reply) =>
    reply.type("image/x-icon").header("cache-control", "public, max-age=86400").send(favicon),
  );
  app.get("/.well-known/security.txt", async (request, reply) => {
    const text = securityTxt({
      contact,
      expires: config.securityTxtExpires,
      canonical: `${originOf(request, services)}/.well-known/security.txt`,
      company,
    });
    return reply
      .type("text/plain; charset=utf-8")
      .header("cache-control", "public, max-age=86400")
      .send(text);
  });
}
