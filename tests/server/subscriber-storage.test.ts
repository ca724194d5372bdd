import { describe, expect, it } from "vitest";
import { bytesPerGb } from "../../server/domain/subscriber-storage.ts";
import { planById } from "../../server/domain/subscription-plans.ts";
import { runRenewals } from "../../server/jobs/subscription-renewal.ts";
import { signIn } from "../support/accounts.ts";
import { BrowserSession, lookAsBrowser } from "../support/browser-session.ts";
import { testDatabases } from "../support/databases.ts";
import { multipart, photos, storedUploads, uploadPhoto } from "../support/photos.ts";
import { shopper, textOf } from "../support/shopper.ts";
import { password, silent, subscriptionShop } from "../support/subscription-shop.ts";

/**
 * A subscriber's photos are the subscription's storage: suspended after the last failed
 * charge, it is read-only (the photos stay, nothing new is stored) until the open month is
 * paid by hand, as the suspended mail says.
 */
describe.each(testDatabases())("a subscriber's photo storage on $name", (target) => {
  const sub = subscriptionShop(target);

  it("takes no new photo while the subscription is suspended, keeps the old ones, and takes them again once paid", async () => {
    const { database } = await sub.open();
    const { charges: job } = sub.instance(database);
    const renew = (day: string) => runRenewals({ database, charges: job, log: silent }, day);
    const email = "storage@example.test";
    const { id } = await sub.subscribe("nl", email);
    const { browser } = await signIn(sub.shop.app, email, password);
    // Looked at twice: the second answer is the page kept for these cookies (the first may set one).
    await lookAsBrowser(browser, "/account/abonnement");
    const kept = await lookAsBrowser(browser, "/account/abonnement");
    expect(kept.text).toContain("Opslag 0 kB van 1 TB gebruikt");
    expect((await uploadPhoto(browser, "eerste.jpg")).statusCode).toBe(200);
    // The account's page counts the photo against Premium's room: not the page kept from before.
    const [stored] = await sub.shop.database.db.selectFrom("uploads").select("bytes").execute();
    expect((await lookAsBrowser(browser, "/account/abonnement")).text).toContain(
      `Opslag ${Math.ceil(Number(stored?.bytes) / 1024)} kB van 1 TB gebruikt`,
    );

    // Three failed charges: suspended.
    await renew("2026-12-28");
    await sub.decide((await sub.charges(id))[0]?.page_url ?? null, "failed");
    await renew("2026-12-31");
    await sub.decide((await sub.charges(id))[1]?.page_url ?? null, "failed");
    await renew("2027-01-04");
    await sub.decide((await sub.charges(id))[2]?.page_url ?? null, "failed");
    expect((await sub.rows(email))[0]?.status).toBe("suspended");
    expect((await sub.mails(email)).find((m) => m.kind === "subscription-suspended")?.text_body).toContain(
      "je kunt geen nieuwe foto's opslaan",
    );

    const before = await storedUploads(sub.shop);
    const refused = await uploadPhoto(browser, "tweede.jpg");
    expect(refused.statusCode).toBe(422);
    expect(textOf(refused.body)).toContain(
      "tweede.jpg: je fotoabonnement is gepauzeerd omdat een maand niet betaald is, dus we bewaren geen nieuwe foto's.",
    );
    expect((await storedUploads(sub.shop)).rows).toEqual(before.rows);
    // The photo from before is still there.
    expect(before.rows.map((r) => r.original_name)).toEqual(["eerste.jpg"]);

    // Paid by hand from the mail's link: storing works again.
    const link = await sub.payLink(email, "subscription-suspended", "nl");
    const other = await shopper(sub.shop.app, "/");
    const started = await other.post(link, {});
    await sub.decide(String(started.headers.location), "paid");
    expect((await sub.rows(email))[0]?.status).toBe("active");
    expect((await uploadPhoto(browser, "derde.jpg")).statusCode).toBe(200);
  });

  it("gives a photo back in full resolution as a download, to its owner on any device only", async () => {
    await sub.open();
    await sub.subscribe("nl", "download@example.test");
    const { browser } = await signIn(sub.shop.app, "download@example.test", password);
    expect((await uploadPhoto(browser, "zomer 'strand' (1).jpg")).statusCode).toBe(200);
    const photosPage = await browser.get("/account/fotos");
    const link = /href="(\/uploads\/[\w-]{22}\/original)" download/.exec(photosPage.body)?.[1];
    expect(link, "a download link on the account's photos").toBeDefined();

    // Signed in on another device: the same account's photo.
    const { browser: laptop } = await signIn(sub.shop.app, "download@example.test", password);
    const download = await laptop.get(String(link));
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-type"]).toBe("image/jpeg");
    expect(download.headers["cache-control"]).toBe("private, no-store");
    expect(download.headers["content-disposition"]).toBe(
      "attachment; filename=\"zomer 'strand' (1).jpg\"; filename*=UTF-8''zomer%20%27strand%27%20%281%29.jpg",
    );
    const [row] = await sub.shop.database.db.selectFrom("uploads").select(["bytes"]).execute();
    expect(download.rawPayload.length).toBe(Number(row?.bytes));
    // Someone else's browser gets nothing, as for an address that does not exist.
    expect((await new BrowserSession(sub.shop.app).get(String(link))).statusCode).toBe(404);
  });

  it("stores only one of two photos sent at once when the plan has room for one", async () => {
    await sub.open();
    const email = "twice@example.test";
    await sub.subscribe("nl", email, "basis");
    const { browser } = await signIn(sub.shop.app, email, password);
    const data = await photos.jpeg();
    const post = () =>
      browser.post(
        "/fotoboek-maken/fotos",
        multipart([{ name: "photo", file: { filename: "tegelijk.jpg", data } }]),
        { "x-requested-with": "XMLHttpRequest", "x-csrf-token": browser.token },
      );
    await browser.get("/fotoboek-maken?fotoboek=exclusief-fotoboek");
    // One photo first, to learn what one takes once stored; then Basis's 50 GB filled up to
    // one and a half photos' room by stand-in rows (a row's bytes is a 32-bit integer).
    expect((await post()).statusCode).toBe(200);
    const [first] = await sub.shop.database.db.selectFrom("uploads").select(["bytes", "owner_id"]).execute();
    const photo = Number(first?.bytes);
    const room = (planById("basis")?.storageGb ?? 0) * bytesPerGb;
    const filler = room - photo - Math.floor(photo * 1.5);
    const rows = Array.from({ length: Math.ceil(filler / bytesPerGb) }, (_, n) => ({
      id: `stand-in-${String(n).padStart(13, "0")}`,
      owner_id: String(first?.owner_id),
      project_id: null,
      original_name: "archief.jpg",
      format: "jpeg",
      width: 1,
      height: 1,
      bytes: Math.min(bytesPerGb, filler - n * bytesPerGb),
      created_at: new Date().toISOString(),
    }));
    await sub.shop.database.db.insertInto("uploads").values(rows).execute();

    const answers = await Promise.all([post(), post()]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 422]);
    expect(textOf(answers.find((a) => a.statusCode === 422)?.body ?? "")).toContain(
      "tegelijk.jpg: de opslag van je fotoabonnement is vol.",
    );
    const stored = await sub.shop.database.db.selectFrom("uploads").select("bytes").execute();
    expect(stored).toHaveLength(rows.length + 2);
    expect(stored.reduce((sum, row) => sum + Number(row.bytes), 0)).toBeLessThanOrEqual(room);
  });

  it("leaves a guest's and a non-subscriber's uploads to the shop's own limits", async () => {
    await sub.open();
    expect((await uploadPhoto(new BrowserSession(sub.shop.app), "gast.jpg")).statusCode).toBe(200);
  });
});
