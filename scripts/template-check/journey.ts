import type { LightMyRequestResponse } from "fastify";
import type { Category, Product } from "../../server/domain/catalogue.ts";
import { formatValue, isPhotoBook } from "../../server/domain/photo-books.ts";
import { type Locale, locales } from "../../server/i18n/locales.ts";
import type { RouteParams } from "../../server/i18n/routes.ts";
import { newLinkToken } from "../../server/store/link-token.ts";
import { BrowserSession } from "../../tests/support/browser-session.ts";
import { multipart, photos } from "../../tests/support/photos.ts";
import { signupLinkPath } from "../../tests/support/subscriptions.ts";
import { isHtml, type RenderedPage, renderedPage } from "./render.ts";
import type { CheckShop } from "./shop.ts";

/** A step of the journey that did not go as a shopper's would: its pages could not be checked. */
export interface JourneyFailure {
  step: string;
  url: string;
  message: string;
}

/** The routes whose pages show what a shopper made: rendered here, with that in place. */
export const journeyRoutes = [
  "contact",
  "contactThanks",
  "editorStart",
  "editorProject",
  "cartContents",
  "cartAddress",
  "cartOverview",
  "orderConfirmation",
  "subscription",
  "subscriptionWelcome",
  "subscriptionConfirm",
  "subscriptionStatus",
  "subscriptionPayByHand",
  "account",
  "accountOrders",
  "accountPhotos",
  "accountSubscription",
  "accountAddresses",
  "accountAddress",
  "accountSettings",
  "accountPrivacy",
  "accountConfirm",
  "accountEmailConfirm",
  "passwordReset",
  "contractCancelCheck",
  "contractCancelReceived",
  "contractCancelConfirm",
  "contractWithdrawCheck",
  "contractWithdrawReceived",
] as const;

const anna = {
  name: "Anna de Vries",
  street: "Dorpsstraat 12",
  postcode: "1234 AB",
  city: "Utrecht",
  country: "NL",
  email: "anna@example.nl",
  phone: "06 12345678",
};
const password = "Zomer aan zee 2026!";

/**
 * The pages of a shopper's own, with everything in place that they show: a shopper sends
 * a question, uploads photos, makes a photo book of them, puts it and prints in the cart,
 * gives an address, orders, and takes out a subscription (opening the link from its mail,
 * with a payment that failed), which signs them in: then every page of their account, and
 * the pages the account's mails link to. Each page is rendered in both
 * languages at the moment it shows most; a form refused for empty fields is a page too
 * (the error summary). Everything goes through app.inject, as a browser would send it.
 */
export async function journeyPages(
  shop: CheckShop,
  wanted: (routeId: string) => boolean,
): Promise<{ pages: RenderedPage[]; failures: JourneyFailure[] }> {
  const { app, catalogue } = shop;
  const routes = app.i18n.routes;
  const browser = new BrowserSession(app);
  const pages: RenderedPage[] = [];
  const failures: JourneyFailure[] = [];
  const path = (id: string, params?: RouteParams, locale: Locale = "nl") =>
    routes.pathForUntyped(id, locale, params);
  const query = (locale: Locale, pairs: [string, string][]) =>
    new URLSearchParams(pairs.map(([key, value]) => [app.i18n.t[locale](key), value])).toString();

  /** A form refused for empty fields: the page it comes back on, with its error summary. */
  const refused = async (routeId: string, url: string) => {
    const res = await browser.form(url, {});
    if (!wanted(routeId)) return;
    if (res.statusCode !== 422 || !isHtml(res)) {
      failures.push({
        step: routeId,
        url,
        message: `an empty form answered ${res.statusCode}, not the form with its errors (422)`,
      });
      return;
    }
    pages.push(
      renderedPage(shop, { routeId, locale: "nl", method: "POST", url, cookie: browser.cookieHeader() }, res),
    );
  };
  /** The page in both languages, as this shopper sees it now; `url` builds its address per language. */
  const visit = async (routeId: string, url: (locale: Locale) => string) => {
    if (!wanted(routeId)) return;
    for (const locale of locales) {
      const address = url(locale);
      const cookie = browser.cookieHeader();
      const res = await browser.get(address);
      if (res.statusCode === 200 && isHtml(res)) {
        pages.push(renderedPage(shop, { routeId, locale, url: address, cookie }, res));
      } else {
        failures.push({
          step: routeId,
          url: address,
          message: `answered ${res.statusCode} instead of the page`,
        });
      }
    }
  };
  const expectRedirect = (step: string, url: string, res: LightMyRequestResponse): string => {
    const location = res.headers.location;
    if (res.statusCode !== 303 || typeof location !== "string") {
      throw new Error(`${step}: the post to ${url} answered ${res.statusCode}, not a redirect`);
    }
    return location;
  };
  const step = async (name: string, url: string, run: () => Promise<void>) => {
    try {
      await run();
    } catch (err) {
      failures.push({ step: name, url, message: (err as Error).message });
    }
  };

  const categoryOf = (product: Product) => catalogue.category(product.category) as Category;
  const productPath = (product: Product, locale: Locale = "nl") =>
    path("product", { category: categoryOf(product).slug[locale], product: product.slug[locale] }, locale);
  const book = catalogue.products.find(isPhotoBook);
  const bookSize = book?.sizes.find((s) => s.available);
  const other = catalogue.products.find((p) => !isPhotoBook(p) && p.sizes.some((s) => s.available));
  const otherSize = other?.sizes.find((s) => s.available);
  if (!book || !bookSize || !other || !otherSize) {
    return {
      pages,
      failures: [
        {
          step: "journey",
          url: "/",
          message: "the catalogue has no photo book and no other product to order",
        },
      ],
    };
  }

  // A form token and the cookies that come with it, as on any first visit.
  await browser.get(productPath(book));

  await step("contact", path("contact"), async () => {
    await refused("contact", path("contact"));
    const sent = await browser.form(path("contact"), {
      name: anna.name,
      email: anna.email,
      orderNumber: "",
      subject: "order",
      question: "Wanneer wordt mijn fotoboek verzonden? Ik heb het vorige week besteld.",
      website: "",
    });
    expectRedirect("contact", path("contact"), sent);
    await visit("contactThanks", (l) => path("contactThanks", {}, l));
  });

  let uploadId = "";
  await step("upload", path("editorUpload"), async () => {
    const res = await browser.post(
      path("editorUpload"),
      multipart([
        { name: "_csrf", value: browser.token },
        { name: "photo", file: { filename: "strand.jpg", data: await photos.jpeg(), type: "image/jpeg" } },
      ]),
      { "x-requested-with": "XMLHttpRequest" },
    );
    uploadId = /name="upload" value="([\w-]+)"/.exec(res.body)?.[1] ?? "";
    if (!uploadId) throw new Error(`the uploader's post answered ${res.statusCode} without the photo`);
    // The editor with a book chosen and that photo waiting for it.
    await visit("editorStart", (l) => {
      const pairs: [string, string][] = [
        ["editor.query.product", book.slug[l]],
        ["product.query.orientation", app.i18n.t[l](`orientationSlug.${bookSize.orientation}`)],
        ["product.query.size", bookSize.id],
        ["editor.query.photo", uploadId],
      ];
      return `${path("editorStart", {}, l)}?${query(l, pairs)}`;
    });
  });

  let projectId = "";
  await step("editorProject", path("editorStart"), async () => {
    const res = await browser.post(
      path("editorStart"),
      multipart([
        { name: "_csrf", value: browser.token },
        { name: "product", value: book.id },
        { name: "format", value: formatValue(bookSize) },
        ...(uploadId ? [{ name: "upload", value: uploadId }] : []),
        { name: "photos", file: { filename: "bos.png", data: await photos.png(), type: "image/png" } },
      ]),
    );
    const location = expectRedirect("editorProject", path("editorStart"), res);
    projectId = decodeURIComponent(location.split("#")[0]?.split("/").pop() ?? "");
    await visit("editorProject", (l) => path("editorProject", { project: projectId }, l));
  });

  await step("cartContents", path("cartContents"), async () => {
    if (projectId) {
      expectRedirect(
        "cartContents",
        path("cartContents"),
        await browser.form(path("cartContents"), { project: projectId, quantity: "1" }),
      );
    }
    const line = { product: other.id, orientation: otherSize.orientation, size: otherSize.id, quantity: "2" };
    expectRedirect("cartContents", path("cartContents"), await browser.form(path("cartContents"), line));
    await visit("cartContents", (l) => path("cartContents", {}, l));
    // Any page with something in the cart: the header shows the count.
    await visit("product", (l) => productPath(other, l));
  });

  await step("cartAddress", path("cartAddress"), async () => {
    await refused("cartAddress", path("cartAddress"));
    expectRedirect("cartAddress", path("cartAddress"), await browser.form(path("cartAddress"), anna));
    await visit("cartAddress", (l) => path("cartAddress", {}, l));
    await visit("cartOverview", (l) => path("cartOverview", {}, l));
  });

  await step("orderConfirmation", path("cartOverview"), async () => {
    const overview = await browser.get(path("cartOverview"));
    const field = (name: string) =>
      new RegExp(`name="${name}" value="([^"]*)"`).exec(overview.body)?.[1] ?? "";
    const placed = await browser.form(path("cartOverview"), {
      orderKey: field("orderKey"),
      fingerprint: field("fingerprint"),
    });
    // Placing the order leads to the built-in test provider's payment page.
    const paying = expectRedirect("orderConfirmation", path("cartOverview"), placed);
    const payment = decodeURIComponent(paying.split("/").pop() ?? "");
    await visit("testPayment", (l) => path("testPayment", { payment }, l));
    // A failed payment leads back to the order page with the form to pay again: its fullest state.
    const back = expectRedirect(
      "testPayment",
      paying,
      await browser.form(path("testPayment", { payment }), { outcome: "failed" }),
    );
    const returned = new URL(back, "http://shop.test");
    const number = decodeURIComponent(returned.pathname.split("/").pop() ?? "");
    // The order page opens by the order's own secret in its query (ADR 0089).
    await visit("orderConfirmation", (l) => `${path("orderConfirmation", { number }, l)}${returned.search}`);
  });

  await step("subscriptionSignup", path("subscriptionSignup"), async () => {
    await refused("subscription", path("subscriptionSignup"));
    const signedUp = await browser.form(path("subscriptionSignup"), {
      plan: "plus",
      country: "NL",
      name: anna.name,
      email: anna.email,
      password,
      passwordConfirm: password,
    });
    expectRedirect("subscriptionSignup", path("subscriptionSignup"), signedUp);
    await visit("subscriptionWelcome", (l) => path("subscriptionWelcome", {}, l));
    // The subscription page with this shopper's photos in its uploads tab.
    await visit("subscription", (l) => path("subscription", {}, l));
  });

  await step("subscriptionConfirm", path("subscriptionSignup"), async () => {
    const link = await signupLinkPath(shop.database.db, anna.email);
    if (!link) throw new Error(`no sign-up link was mailed to ${anna.email}`);
    const token = decodeURIComponent(link.split("/").pop() ?? "");
    await visit("subscriptionConfirm", (l) => path("subscriptionConfirm", { token }, l));
    const paying = expectRedirect("subscriptionConfirm", link, await browser.form(link, {}));
    const payment = decodeURIComponent(paying.split("/").pop() ?? "");
    // A failed payment: the subscription's page with the form to pay again.
    const back = expectRedirect(
      "testPayment",
      paying,
      await browser.form(path("testPayment", { payment }), { outcome: "failed" }),
    );
    const subscription = decodeURIComponent(
      new URL(back, "http://shop.test").pathname.split("/").pop() ?? "",
    );
    await visit("subscriptionStatus", (l) => path("subscriptionStatus", { subscription }, l));
    // A failed charge's link (ADR 0106), written as the renewal's failed mail writes it: the
    // subscription waits for its first month, so the page shows the period with nothing to pay.
    const payLink = newLinkToken();
    const at = new Date().toISOString();
    await shop.database.db
      .insertInto("subscription_charges")
      .values({
        subscription_id: subscription,
        period_start: "2027-01-01",
        period_end: "2027-01-31",
        attempt: 1,
        due_on: "2027-01-01",
        amount_cents: 999,
        method: "mandate",
        payment_id: null,
        provider: "test",
        status: "failed",
        page_url: null,
        failure_mailed_at: at,
        pay_link_hash: payLink.hash,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await visit("subscriptionPayByHand", (l) => path("subscriptionPayByHand", { token: payLink.token }, l));
  });

  await step("account", path("account"), async () => {
    for (const id of [
      "account",
      "accountOrders",
      "accountPhotos",
      "accountSubscription",
      "accountAddresses",
      "accountSettings",
      "accountPrivacy",
    ]) {
      await visit(id, (l) => path(id, {}, l));
    }
    await refused("accountAddresses", path("accountAddresses"));
    await refused("accountSettings", path("accountPassword"));
    expectRedirect(
      "accountAddresses",
      path("accountAddresses"),
      await browser.form(path("accountAddresses"), anna),
    );
    const saved = await shop.database.db.selectFrom("addresses").select("id").executeTakeFirstOrThrow();
    await visit("accountAddress", (l) => path("accountAddress", { address: saved.id }, l));
  });

  await step("accountEmailConfirm", path("accountEmail"), async () => {
    const asked = await browser.form(path("accountEmail"), {
      email: "anna.nieuw@example.nl",
      currentPassword: password,
    });
    expectRedirect("accountEmail", path("accountEmail"), asked);
    const link = await signupLinkPath(shop.database.db, "anna.nieuw@example.nl", "email-change");
    if (!link) throw new Error("no link was mailed to the new address");
    const token = decodeURIComponent(link.split("/").pop() ?? "");
    await visit("accountEmailConfirm", (l) => path("accountEmailConfirm", { token }, l));
  });

  await step("passwordReset", path("passwordForgotten"), async () => {
    await browser.form(path("passwordForgotten"), { email: anna.email });
    const link = await signupLinkPath(shop.database.db, anna.email, "password-reset");
    if (!link) throw new Error("no reset link was mailed");
    const token = decodeURIComponent(link.split("/").pop() ?? "");
    await visit("passwordReset", (l) => path("passwordReset", { token }, l));
  });

  await step("accountConfirm", path("accountCreate"), async () => {
    const other = { name: "Bram Bakker", email: "bram@example.nl", password, passwordConfirm: password };
    expectRedirect("accountCreate", path("accountCreate"), await browser.form(path("accountCreate"), other));
    const link = await signupLinkPath(shop.database.db, other.email, "account-confirm");
    if (!link) throw new Error("no account link was mailed");
    const token = decodeURIComponent(link.split("/").pop() ?? "");
    await visit("accountConfirm", (l) => path("accountConfirm", { token }, l));
  });

  // Cancelling and withdrawing without signing in: the form with its errors, the check page,
  // the page after the button, and the mailed link's page (the subscription is Anna's).
  for (const [kind, mailKind] of [
    ["Cancel", "contract-cancel-received"],
    ["Withdraw", "contract-withdraw-received"],
  ] as const) {
    await step(`contract${kind}Confirm`, path(`contract${kind}`), async () => {
      await refused(`contract${kind}`, path(`contract${kind}`));
      const fields = { name: anna.name, email: anna.email, contract: "address", notice: "ordinary" };
      expectRedirect(
        `contract${kind}`,
        path(`contract${kind}`),
        await browser.form(path(`contract${kind}`), fields),
      );
      await visit(`contract${kind}Check`, (l) => path(`contract${kind}Check`, undefined, l));
      const sent = await browser.form(path(`contract${kind}Check`), {});
      expectRedirect(`contract${kind}Check`, path(`contract${kind}Check`), sent);
      await visit(`contract${kind}Received`, (l) => path(`contract${kind}Received`, undefined, l));
      // Anna's first month was never paid: nothing to withdraw from, so that mail has no link
      // (its page is the cancellation's template with other words).
      if (kind === "Withdraw") return;
      const link = await signupLinkPath(shop.database.db, anna.email, mailKind);
      if (!link) throw new Error(`no ${mailKind} link was mailed`);
      const token = decodeURIComponent(link.split("/").pop() ?? "");
      await visit(`contract${kind}Confirm`, (l) => path(`contract${kind}Confirm`, { token }, l));
    });
  }

  return { pages, failures };
}
