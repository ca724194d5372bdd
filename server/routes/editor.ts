import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { PhotoUploadParams } from "../../islands/photo-upload/contract.ts";
import { type ProjectCart, projectCartLines } from "../cart/project-lines.ts";
import { type Orientation, orientations, type Product, type ProductSize } from "../domain/catalogue.ts";
import { formatPrice } from "../domain/money.ts";
import { findFormat, formatValue, isPhotoBook } from "../domain/photo-books.ts";
import { acceptedPhotoTypes } from "../domain/photo-type.ts";
import { type OptionRequest, resolveOptions } from "../domain/product-options.ts";
import { tabSlug } from "../domain/tab-slug.ts";
import { addToCartForm, maxQuantity } from "../forms/add-to-cart-form.ts";
import type { FieldError, FormValues } from "../forms/form.ts";
import { headerCountShown, pageShows, type Shown, shopperShown } from "../http/caching/page-shows.ts";
import { takeFlash, writeFlash } from "../http/cookies/flash-cookie.ts";
import { ensureShopperId, readShopperId } from "../http/cookies/shopper-cookie.ts";
import { clientLimitReached, overClientLimit, retryText } from "../http/limits/client-limits.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { readMultipartForm } from "../http/multipart-form.ts";
import { isAjax } from "../http/rendering/pages.ts";
import type { Services } from "../http/services.ts";
import { type Locale, perLocale } from "../i18n/locales.ts";
import type { Translate } from "../i18n/translate.ts";
import type { PhotoProject } from "../store/photo-project-repository.ts";
import { isRandomId } from "../store/random-id.ts";
import type { Upload } from "../store/upload-repository.ts";
import { isRejection, type Rejection } from "../uploads/photo-intake.ts";
import { removePhotoFiles } from "../uploads/photo-storage.ts";
import { megabytes, uploadLimits } from "../uploads/upload-limits.ts";
import {
  type PhotoReceiving,
  receivePhoto,
  refusedStatus,
  rejectionMessage,
  removedFlash,
  takeRemovedNotice,
  uploadLimitsShown,
  uploadView,
} from "./uploads.ts";

/** What the project page says after a redirect-after-post: how many photos joined, which files did not. */
interface PhotosNotice {
  added: number;
  rejected: Rejection[];
}
const flashName = "photos";
/** The start form's photo picker, as errors name it: the summary links to #editor-photos-input. */
const photosField = "photos-input";

/** A form field that may come once or several times, as a list of strings. */
const fieldList = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === "string");
/** A cookie holds about 4 kB: the first refusals by name, the rest as a count. */
const maxNamedRejections = 12;

/**
 * The online photo editor's start: choose a photo book and format (carried over from
 * the product page), upload photos, and see them laid out one per page on the
 * project page, from where the book goes into the cart with its project.
 */
export function editorRoutes(
  app: FastifyInstance,
  services: Services,
  routes: LocalizedRoutes,
  receiving: PhotoReceiving,
): ProjectCart {
  const route = routes.on(app);
  const { catalogue, i18n, links, projects, uploads, photoStorage } = services;
  const books = catalogue.products.filter(isPhotoBook);
  const money = (cents: number, locale: Locale) => formatPrice(cents, locale);
  const pixelLimit = (locale: Locale) => uploadLimitsShown(services, locale);

  const productParam = (locale: Locale) => i18n.t[locale]("editor.query.product");
  const photoParam = (locale: Locale) => i18n.t[locale]("editor.query.photo");
  /** The start page for a book and format; with `staged`, the photos already chosen for it (their ids). */
  const startHref = (
    locale: Locale,
    product?: Product,
    size?: ProductSize,
    staged: readonly string[] = [],
  ) => {
    const path = i18n.routes.pathFor("editorStart", locale);
    if (!product) return path;
    const query = new URLSearchParams([[productParam(locale), product.slug[locale]]]);
    if (size) {
      const names = links.queryNames(locale);
      query.set(names.orientation, links.orientationSlug(size.orientation, locale));
      query.set(names.size, size.id);
    }
    for (const id of staged) query.append(photoParam(locale), id);
    return `${path}?${query}`;
  };
  const projectHref = (locale: Locale, projectId: string) =>
    i18n.routes.pathFor("editorProject", locale, { project: projectId });

  const formatLabel = (size: ProductSize, t: Translate, locale: Locale) => {
    const label = t("editor.formatOption", {
      orientation: t(`orientation.${size.orientation}`),
      size: t("product.size", { size: size.id }),
      price: money(size.priceCents, locale),
    });
    return size.available ? label : t("editor.formatUnavailable", { label });
  };

  /** The photo book a start address names, by its slug in the page's language (or its id). */
  const bookFromQuery = (query: Record<string, unknown>, locale: Locale) => {
    const wanted = query[productParam(locale)];
    if (typeof wanted !== "string") return undefined;
    const value = wanted.trim().toLowerCase();
    return books.find((p) => p.slug[locale] === value || p.id === value);
  };

  /**
   * The format the product page chose. Its options form writes the orientation's slug;
   * the enhanced product page keeps the orientation's id in the field, so both are read.
   */
  const formatFromQuery = (product: Product, query: Record<string, unknown>, locale: Locale) => {
    const names = links.queryNames(locale);
    const raw = query[names.orientation];
    const normalized =
      typeof raw === "string" && (orientations as readonly string[]).includes(raw)
        ? links.orientationSlug(raw as Orientation, locale)
        : raw;
    const wish: OptionRequest = links.readRequest({ ...query, [names.orientation]: normalized }, locale);
    return resolveOptions(product, wish).choice;
  };

  const uploadBox = (locale: Locale, staged: Upload[], projectId?: string): PhotoUploadParams => ({
    url: i18n.routes.pathFor("editorUpload", locale),
    accept: acceptedPhotoTypes,
    maxMegabytes: megabytes(uploadLimits.maxFileBytes),
    perRequest: uploadLimits.maxFilesPerRequest,
    projectId,
    staged: staged.map(uploadView),
  });

  interface StartState {
    format?: string;
    staged?: Upload[];
    /** The notice after a photo was removed from the chosen ones. */
    removed?: string;
    errors?: FieldError[];
    messages?: string[];
  }

  const showStart = (
    request: FastifyRequest,
    reply: FastifyReply,
    product: Product | undefined,
    chosen: ProductSize | undefined,
    state: StartState = {},
    status = 200,
  ) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    const selected = state.format ?? (chosen ? formatValue(chosen) : undefined);
    return reply.page(
      "pages/editor-start",
      {
        title: product ? t("editor.headingFor", { product: product.name[locale] }) : t("editor.title"),
        description: t("editor.description"),
        books: books.map((p) => ({
          product: p,
          href: startHref(locale, p),
          label: t("editor.startWith", { product: p.name[locale] }),
        })),
        book: product && {
          product,
          heading: t("editor.headingFor", { product: product.name[locale] }),
          formats: product.sizes.map((s) => ({
            value: formatValue(s),
            label: formatLabel(s, t, locale),
            selected: formatValue(s) === selected,
            available: s.available,
          })),
          productHref: links.product(product, locale),
          upload: uploadBox(locale, state.staged ?? []),
          errors: state.errors ?? [],
          messages: state.messages ?? [],
          removed: state.removed ?? "",
        },
      },
      {
        status,
        noindex: status !== 200,
        // Someone's chosen photos (and what they removed) are theirs alone.
        cacheable: status === 200 && (state.staged ?? []).length === 0 && !state.removed,
        alternateQuery:
          product && chosen ? perLocale((l) => startHref(l, product, chosen).split("?")[1] ?? "") : undefined,
      },
    );
  };

  route("editorStart", "GET", async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const product = bookFromQuery(query, request.locale);
    const chosen = product ? formatFromQuery(product, query, request.locale) : undefined;
    // Photos the shopper had chosen before removing one of them without JavaScript (see editorPhotoRemove).
    const owner = readShopperId(request);
    const wanted = fieldList(query[photoParam(request.locale)]);
    const staged = product && owner && wanted.length > 0 ? await stagedUploads(owner, wanted) : [];
    const removed = takeRemovedNotice(request, reply, i18n.t[request.locale]);
    if (staged.length > 0 || removed) reply.header("cache-control", "private, no-store");
    return showStart(request, reply, product, chosen, { staged, removed });
  });

  /** Shortens a list of refusals to what a cookie can carry. */
  const notice = (added: number, rejected: Rejection[]): PhotosNotice => ({
    added,
    rejected:
      rejected.length > maxNamedRejections
        ? [
            ...rejected.slice(0, maxNamedRejections - 1),
            {
              name: `+${rejected.length - maxNamedRejections + 1}`,
              reason: rejected[rejected.length - 1]?.reason ?? "unreadable",
            },
          ]
        : rejected,
  });

  /** Staged uploads named by the form (the enhanced uploader's hidden fields), this shopper's only. */
  const stagedUploads = async (owner: string, ids: readonly string[]) => {
    const found: Upload[] = [];
    for (const id of new Set(ids.filter(isRandomId))) {
      const upload = await uploads.get(owner, id);
      if (upload && !upload.projectId) found.push(upload);
    }
    return found;
  };

  /**
   * Attaches photos to a project up to its room; the ones that do not fit stay the
   * shopper's uploads and are reported.
   */
  const attachAll = async (owner: string, project: PhotoProject, photos: Upload[]) => {
    const room = uploadLimits.maxPhotosPerProject - (await uploads.countInProject(project.id));
    const attached = await uploads.attach(
      owner,
      project.id,
      photos.map((p) => p.id),
      room,
    );
    const left = photos.filter((p) => !attached.includes(p.id));
    return {
      attached: attached.length,
      rejected: left.map((p): Rejection => ({ name: p.originalName, reason: "projectFull" })),
    };
  };

  route(
    "editorStart",
    "POST",
    async (request, reply) => {
      const locale = request.locale;
      const t = i18n.t[locale];
      const owner = ensureShopperId(request, reply);
      const bookFor = (fields: Readonly<Record<string, string[]>>) =>
        books.find((p) => p.id === fields.product?.[0]);
      // A shopper at the cap starts no new book; files sent with such a post are not kept.
      const atProjectCap = (await projects.countByOwner(owner)) >= uploadLimits.maxProjectsPerShopper;
      // Nor does a client that started many books lately: looked at now, counted once one starts.
      const projectWait = await clientLimitReached(services.limits.projects, request, reply);
      const keepsFiles = !atProjectCap && projectWait === undefined;
      const received: Array<Upload | Rejection> = [];
      let filesBeforeProduct = false;
      const form = await readMultipartForm(app, request, reply, async (file, fields) => {
        // The form sends the product before its files: a post for no photo book (or one
        // that names it only after the files) keeps nothing.
        if (!bookFor(fields)) {
          filesBeforeProduct = true;
          return;
        }
        if (keepsFiles) {
          received.push(await receivePhoto(services, receiving, request, reply, owner, file));
        }
      });
      if (!form) return reply;
      const product = bookFor(form.fields);
      if (!product || filesBeforeProduct) {
        throw Object.assign(new Error("editor start: unknown photo book"), { statusCode: 400 });
      }
      const rejected = received.filter(isRejection);
      if (form.tooMany) rejected.push({ name: "", reason: "tooMany" });
      const accepted = received.filter((r): r is Upload => !isRejection(r));
      const photos = [...(await stagedUploads(owner, form.fields.upload ?? [])), ...accepted];

      const formatField = form.fields.format?.[0] ?? "";
      const size = findFormat(product, formatField);
      const errors: FieldError[] = [];
      if (!size?.available) {
        errors.push({
          field: "format",
          message: size ? t("product.unavailable") : t("editor.formatInvalid"),
        });
      }
      const tooManyProjects = (wait: number) => ({
        field: photosField,
        message: t("editor.projectsRateLimited", { retry: retryText(t, wait) }),
      });
      if (atProjectCap) {
        errors.push({
          field: photosField,
          message: t("editor.projectsFull", { count: uploadLimits.maxProjectsPerShopper }),
        });
      } else if (projectWait !== undefined) {
        errors.push(tooManyProjects(projectWait));
      } else if (photos.length === 0) {
        errors.push({ field: photosField, message: t("editor.photosRequired") });
      }
      // Photos that came along are kept (staged), so the shopper only fixes what was asked.
      const refuse = (status: number) => {
        const shown = size?.available ? size : (product.sizes.find((s) => s.available) ?? product.sizes[0]);
        return showStart(
          request,
          reply,
          product,
          shown,
          {
            format: formatField,
            staged: photos,
            errors,
            messages: rejected.map((r) => rejectionMessage(r, t, pixelLimit(locale))),
          },
          status,
        );
      };
      if (!size?.available || errors.length > 0) {
        // Over a client limit, and nothing else to mend but waiting: 429 (Retry-After is set);
        // every photo refused for the shop's full storage: 507.
        if (projectWait !== undefined) return refuse(429);
        return refuse(photos.length === 0 ? refusedStatus(rejected) : 422);
      }
      const wait = await overClientLimit(services.limits.projects, request, reply, "photo project");
      if (wait !== undefined) {
        errors.push(tooManyProjects(wait));
        return refuse(429);
      }

      const project = await projects.create(owner, {
        productId: product.id,
        orientation: size.orientation,
        sizeId: size.id,
      });
      const result = await attachAll(owner, project, photos);
      writeFlash(reply, flashName, notice(result.attached, [...rejected, ...result.rejected]));
      return reply.redirect(projectHref(locale, project.id), 303);
    },
    { csrf: false, rateLimit: { max: 60, timeWindow: "1 minute" } },
  );

  const ownProject = async (request: FastifyRequest) => {
    const owner = readShopperId(request);
    const id = (request.params as { project?: string }).project;
    const project = owner && isRandomId(id) ? await projects.get(owner, id) : undefined;
    return owner && project ? { owner, project } : undefined;
  };

  const showProject = async (
    request: FastifyRequest,
    reply: FastifyReply,
    project: PhotoProject,
    state: {
      notice?: PhotosNotice;
      /** "strand.jpg is verwijderd.", after a page was taken out without JavaScript. */
      removed?: string;
      cart?: { values: FormValues; errors: FieldError[] };
    } = {},
    status = 200,
    /** The shopper's revision, read before the project: the plain page is then kept under it. */
    /** The shopper's photos and books at their revision, read before the project (page-shows.ts). */
    shopper?: Shown,
  ) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    const product = catalogue.product(project.productId);
    const size = product?.sizes.find((s) => s.orientation === project.orientation && s.id === project.sizeId);
    if (!product || !size) {
      reply.callNotFound();
      return reply;
    }
    const photos = await uploads.listByProject(project.id);
    const ordered = (await projects.ordered([project.id])).has(project.id);
    const choice = t("product.choice", {
      orientation: t(`orientation.${size.orientation}`),
      size: t("product.size", { size: size.id }),
    });
    reply.header("cache-control", "private, no-store");
    // The plain page changes only with the shopper's photos and books (their revision, raised
    // by the database on every instance) and the header's cart count: while both stand, the
    // same browser asking again gets it as sent (ready-answers.ts).
    const plain = shopper && status === 200 && !state.notice && !state.removed && !state.cart;
    // The plain page changes only with the shopper's photos and books (their revision, raised
    // by the database on every instance) and the header's cart count.
    const shows = plain ? pageShows(shopper, await headerCountShown(services.carts, request)) : undefined;
    return reply.page(
      "pages/editor-project",
      {
        title: t("editor.project.title", { product: product.name[locale] }),
        project,
        product,
        size,
        summary: t("editor.project.summary", {
          product: product.name[locale],
          choice,
          price: money(size.priceCents, locale),
        }),
        pages: photos.map((photo, i) => ({ ...uploadView(photo), n: i + 1 })),
        // Pages can be taken out until the book is ordered.
        removable: !ordered,
        removed: state.removed ?? "",
        full: photos.length >= uploadLimits.maxPhotosPerProject,
        maxPhotos: uploadLimits.maxPhotosPerProject,
        upload: uploadBox(locale, [], project.id),
        uploadAction: i18n.routes.pathFor("editorProjectPhotos", locale, { project: project.id }),
        added: state.notice?.added ?? 0,
        messages: (state.notice?.rejected ?? []).map((r) => rejectionMessage(r, t, pixelLimit(locale))),
        cart: {
          form: addToCartForm,
          maxQuantity,
          values: state.cart?.values ?? { quantity: "1" },
          errors: state.cart?.errors ?? [],
        },
        startHref: startHref(locale, product, size),
        uploadsHref: `${i18n.routes.pathFor("subscription", locale)}#${tabSlug(t("subscription.tabs.uploads"))}`,
      },
      {
        status,
        noindex: true,
        alternateParams: perLocale(() => ({ project: project.id })),
        shows,
      },
    );
  };

  route("editorProject", "GET", async (request, reply) => {
    // Read before the project and its photos, so a change in between fails the check.
    const owner = readShopperId(request);
    const shopper = owner ? await shopperShown(projects, owner) : undefined;
    const own = await ownProject(request);
    if (!own) return reply.callNotFound();
    return showProject(
      request,
      reply,
      own.project,
      {
        notice: takeFlash(request, reply, flashName),
        removed: takeRemovedNotice(request, reply, i18n.t[request.locale]),
      },
      200,
      shopper,
    );
  });

  route(
    "editorProjectPhotos",
    "POST",
    async (request, reply) => {
      const own = await ownProject(request);
      if (!own) return reply.callNotFound();
      const { owner, project } = own;
      const received: Array<Upload | Rejection> = [];
      const form = await readMultipartForm(app, request, reply, async (file) => {
        received.push(await receivePhoto(services, receiving, request, reply, owner, file, project.id));
      });
      if (!form) return reply;
      const rejected = received.filter(isRejection);
      if (form.tooMany) rejected.push({ name: "", reason: "tooMany" });
      const direct = received.length - rejected.filter((r) => r.reason !== "tooMany").length;
      const result = await attachAll(owner, project, await stagedUploads(owner, form.fields.upload ?? []));
      await projects.touch(project.id);
      const photosNotice = notice(direct + result.attached, [...rejected, ...result.rejected]);
      const status = refusedStatus(rejected);
      if (photosNotice.added === 0 && status !== 422) {
        // Nothing joined because the client uploaded too much lately (said at once, with
        // Retry-After), or because the shop has no room left: said at once too.
        return showProject(request, reply, project, { notice: photosNotice }, status);
      }
      writeFlash(reply, flashName, photosNotice);
      return reply.redirect(`${projectHref(request.locale, project.id)}#preview`, 303);
    },
    { csrf: false, rateLimit: { max: 60, timeWindow: "1 minute" } },
  );

  /**
   * Removes one of the shopper's photos for good: its row and its files. Posted by a
   * remove button (a staged photo on the start form, a page of the project, a photo on
   * the subscription page's uploads tab) or by the uploader with JavaScript (204). A
   * photo in a book that was ordered stays: production needs it.
   */
  route(
    "editorPhotoRemove",
    "POST",
    async (request, reply) => {
      const locale = request.locale;
      const body = (request.body ?? {}) as Record<string, unknown>;
      const id = body.remove;
      const owner = readShopperId(request);
      const upload = owner && isRandomId(id) ? await uploads.get(owner, id) : undefined;
      if (!owner || !upload) return reply.callNotFound();
      if (upload.projectId && (await projects.ordered([upload.projectId])).size > 0) {
        throw Object.assign(new Error("photo remove: the photo's book was ordered"), { statusCode: 409 });
      }
      if (await uploads.remove(owner, upload.id)) {
        // The row went first: no list shows a photo whose files are gone.
        await removePhotoFiles(photoStorage, upload.id).catch((err: unknown) =>
          request.log.warn({ err, upload: upload.id }, "photo remove: files not deleted"),
        );
        if (upload.projectId) await projects.touch(upload.projectId);
      }
      reply.header("cache-control", "private, no-store");
      if (isAjax(request)) return reply.code(204).send();

      writeFlash(reply, removedFlash, { name: upload.originalName });
      const book = books.find((p) => p.id === fieldList(body.product)[0]);
      if (book) {
        // From the start form (its button posts the whole form): back to it, with the photos still chosen.
        const size = findFormat(book, fieldList(body.format)[0] ?? "");
        const staged = fieldList(body.upload).filter((u) => u !== upload.id && isRandomId(u));
        return reply.redirect(startHref(locale, book, size, staged), 303);
      }
      if (body.back === "account") return reply.redirect(i18n.routes.pathFor("accountPhotos", locale), 303);
      if (body.back === "uploads") {
        const t = i18n.t[locale];
        return reply.redirect(
          `${i18n.routes.pathFor("subscription", locale)}#${tabSlug(t("subscription.tabs.uploads"))}`,
          303,
        );
      }
      if (upload.projectId) return reply.redirect(`${projectHref(locale, upload.projectId)}#preview`, 303);
      return reply.redirect(i18n.routes.pathFor("editorStart", locale), 303);
    },
    { rateLimit: { max: 120, timeWindow: "1 minute" } },
  );

  return projectCartLines(services, {
    showProject: (request, reply, project, cart, status) =>
      showProject(request, reply, project, { cart }, status),
    projectHref,
    startHref: (locale) => startHref(locale),
  });
}
