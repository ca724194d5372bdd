import type { FastifyInstance } from "fastify";
import { keepSignedInPage } from "../accounts/keep-signed-in-page.ts";
import { localMoment } from "../domain/delivery-times.ts";
import { shopperShown } from "../http/caching/page-shows.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { requireAccount } from "../http/security/account-guard.ts";
import type { Services } from "../http/services.ts";
import { mailDate } from "../mail/order-confirmation.ts";
import { takeRemovedNotice, uploadViews } from "./uploads.ts";

/**
 * "Mijn foto's en projecten": the account's photo-book projects and photos, the same on every
 * device it signs in on (they carry the account's owner id: browser-join.ts moves a browser's
 * own to it at sign-in). Photos in an ordered book cannot be removed: production needs them.
 */
export function accountPhotosRoutes(app: FastifyInstance, services: Services, routes: LocalizedRoutes): void {
  const route = routes.on(app);
  const { i18n, uploads, projects, catalogue } = services;

  route("accountPhotos", "GET", async (request, reply) => {
    const session = await requireAccount(services, request, reply);
    if (!session) return reply;
    const locale = request.locale;
    const t = i18n.t[locale];
    const owner = session.account.ownerId;
    // Read before the photos and books, so a change in between fails the check.
    await keepSignedInPage(services, request, reply, session, await shopperShown(projects, owner));
    const [photos, books] = await Promise.all([uploads.listByOwner(owner), projects.listByOwner(owner)]);
    const ordered = await projects.ordered(books.map((book) => book.id));
    const projectHref = (project: string) => i18n.routes.pathFor("editorProject", locale, { project });
    return reply.page(
      "pages/account-photos",
      {
        title: t("account.photos.title"),
        removed: takeRemovedNotice(request, reply, t),
        projects: books.map((book) => ({
          href: projectHref(book.id),
          text: t("account.photos.project", {
            product: catalogue.product(book.productId)?.name[locale] ?? book.productId,
            photos: t("editor.cart.photos", { count: book.photoCount }),
            date: mailDate(localMoment(new Date(book.updatedAt)).date, locale),
          }),
        })),
        uploads: uploadViews(photos, ({ project }) => projectHref(project)).map((view) => ({
          ...view,
          removable: !view.projectId || !ordered.has(view.projectId),
        })),
      },
      { noindex: true, keyedByData: true },
    );
  });
}
