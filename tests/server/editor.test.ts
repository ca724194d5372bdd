import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeFromOverview } from "../support/accounts.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { BrowserSession } from "../support/browser-session.ts";
import { orderForBook } from "../support/orders.ts";
import { multipart, type Part, photos } from "../support/photos.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await testShop();
});
afterAll(() => shop.close());

const start = "/fotoboek-maken";
const startFor = "/fotoboek-maken?fotoboek=exclusief-fotoboek&orientatie=staand&formaat=21x30";
const plain = (s: string) => s.replace(/\s+/g, " ");

/** Starts a project the way the form without JavaScript does: format and files in one post. */
async function startProject(browser: BrowserSession, files: Part["file"][], fields: Part[] = []) {
  await browser.get(startFor);
  const parts: Part[] = [
    { name: "_csrf", value: browser.token },
    { name: "product", value: "exclusive-photobook" },
    { name: "format", value: "portrait:21x30" },
    ...fields,
    ...files.map((file) => ({ name: "photos", file })),
  ];
  return browser.post(start, multipart(parts));
}

describe("the photo editor's start", () => {
  it("offers the photo books to choose from when none is chosen yet", async () => {
    const res = await shop.app.inject({ url: start });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("<h1>Maak je fotoboek</h1>");
    expect(res.body).toContain('href="/fotoboek-maken?fotoboek=exclusief-fotoboek"');
    expect(res.body).toContain('href="/fotoboek-maken?fotoboek=vierkant-fotoboek"');
    // Only photo books: prints and canvases have no pages to fill.
    expect(res.body).not.toContain("fotoboek=foto-op-canvas");
  });

  it("carries over the orientation and size chosen on the product page, in either spelling", async () => {
    const bySlug = await shop.app.inject({ url: startFor });
    expect(bySlug.body).toContain('<option value="portrait:21x30" selected>');
    // The enhanced product page keeps the orientation's id in its hidden field.
    const byId = await shop.app.inject({
      url: "/fotoboek-maken?fotoboek=exclusief-fotoboek&orientatie=square&formaat=30x30",
    });
    expect(byId.body).toContain('<option value="square:30x30" selected>');
    expect(byId.body).toContain('enctype="multipart/form-data"');
    expect(byId.body).toContain('data-island="photo-upload"');
  });

  it("is linked from each photo book's product page with the chosen format, and not from other products", async () => {
    const book = await shop.app.inject({
      url: "/assortiment/fotoboeken/exclusief-fotoboek?orientatie=staand&formaat=21x30",
    });
    expect(book.body).toMatch(
      /<form class="editor-start-link" method="get" action="\/fotoboek-maken">\s*<input type="hidden" name="fotoboek" value="exclusief-fotoboek">\s*<input type="hidden" name="orientatie" value="staand" data-product-field="orientation">\s*<input type="hidden" name="formaat" value="21x30" data-product-field="size">/,
    );
    const canvas = await shop.app.inject({ url: "/assortiment/wanddecoratie/foto-op-canvas" });
    expect(canvas.body).not.toContain("editor-start-link");
  });

  it("speaks German at the German address", async () => {
    const res = await shop.app.inject({
      url: "/fotobuch-gestalten?fotobuch=exklusives-fotobuch&ausrichtung=hochformat&format=21x30",
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<html lang="de"');
    expect(res.body).toContain("Fotobuch gestalten: Exklusives Fotobuch");
    expect(res.body).toContain("Fotos auswählen");
    expect(res.body).toContain('<option value="portrait:21x30" selected>');
  });
});

describe("starting a project without JavaScript", () => {
  it("keeps the photos, lays them out one per page, and says which files were refused and why", async () => {
    const browser = new BrowserSession(shop.app);
    const res = await startProject(browser, [
      { filename: "strand.jpg", data: await photos.jpeg(), type: "image/jpeg" },
      { filename: "bos.png", data: await photos.png(), type: "image/png" },
      { filename: "notities.jpg", data: await photos.textAsJpeg(), type: "image/jpeg" },
      { filename: "kapot.jpg", data: await photos.truncatedJpeg(), type: "image/jpeg" },
      { filename: "iphone.heic", data: await photos.heicHeader(), type: "image/heic" },
      { filename: "klein.jpg", data: await photos.jpeg(120, 90), type: "image/jpeg" },
    ]);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(/^\/fotoboek-maken\/project\/[\w-]{22}$/);

    const project = await browser.follow(res);
    expect(project.statusCode).toBe(200);
    const html = plain(project.body);
    expect(html).toContain("2 foto&#39;s toegevoegd aan je fotoboek.");
    expect(html).toContain("4 bestanden zijn niet toegevoegd");
    expect(html).toContain("notities.jpg: dit is geen foto. We kunnen JPEG, PNG, WebP en HEIC lezen.");
    expect(html).toContain("kapot.jpg: deze foto kunnen we niet lezen.");
    expect(html).toContain("iphone.heic: deze HEIC-foto kunnen we niet lezen.");
    expect(html).toContain("klein.jpg: deze foto is te klein om mooi af te drukken");
    expect(html).toContain('Voorbeeld <span class="project__pages">(2 pagina&#39;s)</span>');
    expect(html).toContain('alt="Pagina 1: strand.jpg"');
    expect(html).toContain('alt="Pagina 2: bos.png"');
    expect(html).toContain('class="book-preview book-preview--portrait"');
    expect(html).toContain("Exclusief fotoboek · Staand, 21x30 cm · € 49,99");

    // The notice was for that one page: a reload shows the project without it.
    const again = await browser.get(res.headers.location as string);
    expect(again.body).not.toContain("niet toegevoegd");
    expect(again.body).not.toContain("toegevoegd aan je fotoboek");
  });

  it("stores originals and thumbnails under the data folder, and shows thumbnails only to their owner", async () => {
    const browser = new BrowserSession(shop.app);
    const res = await startProject(browser, [
      { filename: "strand.jpg", data: await photos.jpeg(2000, 1500), type: "image/jpeg" },
    ]);
    const project = await browser.follow(res);
    const thumbnail = /src="(\/uploads\/[\w-]{22}\/thumbnail\.jpg)"/.exec(project.body)?.[1] ?? "";
    expect(thumbnail).not.toBe("");
    const image = await browser.get(thumbnail);
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toBe("image/jpeg");
    expect(image.headers["cache-control"]).toMatch(/^private/);
    expect(image.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    // 2000 × 1500 becomes at most 480 px wide.
    expect(project.body).toMatch(/width="480" height="360"/);

    const stranger = await shop.app.inject({ url: thumbnail });
    expect(stranger.statusCode).toBe(404);
    const files = readdirSync(join(shop.config.dataDir, "uploads", "originals"));
    expect(files.length).toBeGreaterThan(0);
    expect(readdirSync(join(shop.config.dataDir, "uploads", "thumbnails")).length).toBe(files.length);
  });

  it("keeps photos that came along when the format is not one it can make, and asks again", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get(startFor);
    const res = await browser.post(
      start,
      multipart([
        { name: "_csrf", value: browser.token },
        { name: "product", value: "exclusive-photobook" },
        { name: "format", value: "portrait:99x99" },
        { name: "photos", file: { filename: "strand.jpg", data: await photos.jpeg() } },
      ]),
    );
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain("Kies een formaat dat we voor dit fotoboek kunnen maken.");
    expect(res.body).toContain('aria-invalid="true"');
    // The photo is kept as a staged upload, and goes with the form next time.
    const id = /<input type="hidden" name="upload" value="([\w-]{22})">/.exec(res.body)?.[1] ?? "";
    expect(id).not.toBe("");
    const second = await browser.post(
      start,
      multipart([
        { name: "_csrf", value: browser.token },
        { name: "product", value: "exclusive-photobook" },
        { name: "format", value: "portrait:21x30" },
        { name: "upload", value: id },
      ]),
    );
    expect(second.statusCode).toBe(303);
    const project = await browser.follow(second);
    expect(project.body).toContain('alt="Pagina 1: strand.jpg"');
  });

  it("refuses a post without the form's token from a browser that does not say where it comes from, storing nothing", async () => {
    const browser = new BrowserSession(shop.app, { fetchMetadata: false });
    await browser.get(startFor);
    const res = await browser.post(
      start,
      multipart([
        { name: "product", value: "exclusive-photobook" },
        { name: "format", value: "portrait:21x30" },
        { name: "photos", file: { filename: "strand.jpg", data: await photos.jpeg() } },
      ]),
    );
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain("Deze pagina is verlopen");
  });

  it("answers 400 to a body that is not the multipart form it claims to be", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get(startFor);
    const res = await browser.post(start, {
      payload: `--x\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${browser.token}\r\n--x\r\nContent-Disposition: form-data; name="photos"; filename="a.jpg"\r\n\r\nabc`,
      contentType: "multipart/form-data; boundary=x",
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain("Dit verzoek klopt niet");
  });

  it("answers 400 to a form for a product that is no photo book, without keeping the photos that came with it", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get(startFor);
    const before = await shop.database.db.selectFrom("uploads").select("id").execute();
    for (const fields of [
      [{ name: "product", value: "canvas" }],
      // The form names the book before its files; files ahead of it are not kept either.
      [],
    ]) {
      const res = await browser.post(
        start,
        multipart([
          { name: "_csrf", value: browser.token },
          ...fields,
          { name: "format", value: "square:50x50" },
          { name: "photos", file: { filename: "strand.jpg", data: await photos.jpeg() } },
          { name: "product", value: "exclusive-photobook" },
        ]),
      );
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain("Dit verzoek klopt niet");
    }
    const after = await shop.database.db.selectFrom("uploads").select("id").execute();
    expect(after).toHaveLength(before.length);
  });

  it("asks for at least one photo when none came along, keeping the chosen format, and starts no book", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get(startFor);
    const projectsBefore = (await shop.database.db.selectFrom("photo_projects").select("id").execute())
      .length;
    const res = await browser.post(
      start,
      multipart([
        { name: "_csrf", value: browser.token },
        { name: "product", value: "exclusive-photobook" },
        { name: "format", value: "square:30x30" },
      ]),
    );
    expect(res.statusCode).toBe(422);
    const html = plain(res.body);
    expect(html).toContain('<a href="#editor-photos-input">Kies minstens één foto voor je fotoboek.</a>');
    expect(html).toMatch(
      /id="editor-photos-input"[^>]*aria-describedby="editor-photos-input-hint editor-photos-input-error"[^>]*aria-invalid="true"/,
    );
    expect(html).toContain('<option value="square:30x30" selected>');
    expect((await shop.database.db.selectFrom("photo_projects").select("id").execute()).length).toBe(
      projectsBefore,
    );

    // Only refused files: each is explained, and the form still asks for a photo, in German too.
    await browser.get("/fotobuch-gestalten?fotobuch=exklusives-fotobuch");
    const refused = await browser.post(
      "/fotobuch-gestalten",
      multipart([
        { name: "_csrf", value: browser.token },
        { name: "product", value: "exclusive-photobook" },
        { name: "format", value: "portrait:21x30" },
        { name: "photos", file: { filename: "notizen.jpg", data: await photos.textAsJpeg() } },
      ]),
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain("notizen.jpg: Das ist kein Foto.");
    expect(refused.body).toContain("Wählen Sie mindestens ein Foto für Ihr Fotobuch aus.");
    expect(refused.body).not.toContain("Kies minstens");
  });

  it("takes a field named like an object's own property as any other field, or refuses it in a multipart form", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get(startFor);
    const odd = ["constructor", "__proto__", "toString", "hasOwnProperty"];
    // Sent without files: the form comes back asking for a photo, as for any form without one.
    const asForm = await browser.form(start, {
      product: "exclusive-photobook",
      format: "portrait:21x30",
      ...Object.fromEntries(odd.map((name) => [name, "1"])),
    });
    expect(asForm.statusCode).toBe(422);
    expect(asForm.body).toContain("Kies minstens één foto voor je fotoboek.");
    // With files, the multipart reader refuses such a name itself: the page for a malformed request.
    for (const name of odd) {
      const res = await browser.post(
        start,
        multipart([
          { name: "_csrf", value: browser.token },
          { name: "product", value: "exclusive-photobook" },
          { name, value: "1" },
        ]),
      );
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain("Dit verzoek klopt niet");
    }
  });

  it("starts no more than 50 books for one browser, and says what to do instead", async () => {
    const browser = new BrowserSession(shop.app);
    const first = await startProject(browser, [{ filename: "een.jpg", data: await photos.jpeg() }]);
    const owner = await shop.database.db
      .selectFrom("photo_projects")
      .select("owner_id")
      .where("id", "=", (first.headers.location as string).split("/").at(-1) as string)
      .executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    await shop.database.db
      .insertInto("photo_projects")
      .values(
        Array.from({ length: 49 }, (_, i) => ({
          id: `capped-project-${String(i).padStart(7, "0")}`,
          owner_id: owner.owner_id,
          product_id: "exclusive-photobook",
          orientation: "portrait",
          size_id: "21x30",
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    const uploadsBefore = (await shop.database.db.selectFrom("uploads").select("id").execute()).length;
    const res = await startProject(browser, [{ filename: "twee.jpg", data: await photos.jpeg() }]);
    expect(res.statusCode).toBe(422);
    expect(plain(res.body)).toContain("Je hebt in deze browser al 50 fotoboeken gemaakt");
    expect((await shop.database.db.selectFrom("uploads").select("id").execute()).length).toBe(uploadsBefore);
  });

  it("refuses a file over 25 MB with a message that names the limit", async () => {
    const browser = new BrowserSession(shop.app);
    const big = Buffer.concat([await photos.jpeg(), Buffer.alloc(26 * 1024 * 1024)]);
    const res = await startProject(browser, [{ filename: "groot.jpg", data: big }]);
    // Nothing came along, so the form comes back (422) with the reason and the request for a photo.
    expect(res.statusCode).toBe(422);
    expect(plain(res.body)).toContain("groot.jpg: dit bestand is groter dan 25 MB. Kies een kleinere foto.");
    expect(plain(res.body)).toContain("Kies minstens één foto voor je fotoboek.");
  });

  it("takes at most 30 files in one post and says the rest did not come along", async () => {
    const browser = new BrowserSession(shop.app);
    const small = await photos.jpeg(300, 300);
    const files = Array.from({ length: 31 }, (_, i) => ({ filename: `foto-${i + 1}.jpg`, data: small }));
    const res = await startProject(browser, files);
    expect(res.statusCode).toBe(303);
    const project = await browser.follow(res);
    expect(plain(project.body)).toContain("30 foto&#39;s toegevoegd aan je fotoboek.");
    expect(plain(project.body)).toContain("Je stuurde meer dan 30 bestanden tegelijk");
  });
});

describe("the project page", () => {
  it("is only there for the browser that made it", async () => {
    const browser = new BrowserSession(shop.app);
    const res = await startProject(browser, [{ filename: "strand.jpg", data: await photos.jpeg() }]);
    const other = await shop.app.inject({ url: res.headers.location as string });
    expect(other.statusCode).toBe(404);
    expect((await shop.app.inject({ url: "/fotoboek-maken/project/bestaat-niet" })).statusCode).toBe(404);
  });

  it("takes more photos, without JavaScript as files and with it as uploaded ids", async () => {
    const browser = new BrowserSession(shop.app);
    const res = await startProject(browser, [{ filename: "een.jpg", data: await photos.jpeg() }]);
    const projectUrl = res.headers.location as string;
    const page = await browser.follow(res);
    const action =
      /<form class="form project__upload" method="post" action="([^"]+)"/.exec(page.body)?.[1] ?? "";
    expect(action).toBe(`${projectUrl}/fotos`);

    const noJs = await browser.post(
      action,
      multipart([
        { name: "_csrf", value: browser.token },
        { name: "photos", file: { filename: "twee.png", data: await photos.png() } },
      ]),
    );
    expect(noJs.statusCode).toBe(303);
    expect(noJs.headers.location).toBe(`${projectUrl}#preview`);

    // The enhanced uploader: one photo per request to the staging address, then the ids.
    const staged = await browser.post(
      "/fotoboek-maken/fotos",
      multipart([{ name: "photo", file: { filename: "drie.webp", data: await photos.webp() } }]),
      { "x-requested-with": "XMLHttpRequest", "x-csrf-token": browser.token },
    );
    expect(staged.statusCode).toBe(200);
    expect(staged.body).toMatch(/<li class="staged-photo" data-upload-item>/);
    const id = /name="upload" value="([\w-]{22})"/.exec(staged.body)?.[1] ?? "";
    const withIds = await browser.post(
      action,
      multipart([
        { name: "_csrf", value: browser.token },
        { name: "upload", value: id },
      ]),
    );
    expect(withIds.statusCode).toBe(303);
    const after = await browser.follow(withIds);
    expect(after.body).toContain('alt="Pagina 1: een.jpg"');
    expect(after.body).toContain('alt="Pagina 2: twee.png"');
    expect(after.body).toContain('alt="Pagina 3: drie.webp"');
  });

  it("does not take another shopper's upload into a project", async () => {
    const mine = new BrowserSession(shop.app);
    const theirs = new BrowserSession(shop.app);
    await theirs.get(startFor);
    const staged = await theirs.post(
      "/fotoboek-maken/fotos",
      multipart([{ name: "photo", file: { filename: "van-hen.jpg", data: await photos.jpeg() } }]),
      { "x-requested-with": "XMLHttpRequest", "x-csrf-token": theirs.token },
    );
    const id = /name="upload" value="([\w-]{22})"/.exec(staged.body)?.[1] ?? "";
    const res = await startProject(mine, [], [{ name: "upload", value: id }]);
    expect(res.statusCode).toBe(422);
    expect(res.body).not.toContain("van-hen.jpg");
    expect(res.body).not.toContain(id);
    expect(res.body).toContain("Kies minstens één foto voor je fotoboek.");
  });
});

describe("the enhanced uploader's address", () => {
  it("answers a refused file with 422 and the reason, in the shopper's language", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get("/fotobuch-gestalten?fotobuch=exklusives-fotobuch");
    const res = await browser.post(
      "/fotobuch-gestalten/fotos",
      multipart([{ name: "photo", file: { filename: "notizen.jpg", data: await photos.textAsJpeg() } }]),
      { "x-requested-with": "XMLHttpRequest", "x-csrf-token": browser.token },
    );
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain("notizen.jpg: Das ist kein Foto.");
  });

  it("refuses an upload without the token", async () => {
    const res = await shop.app.inject({
      method: "POST",
      url: "/fotoboek-maken/fotos",
      ...((m) => ({
        payload: m.payload,
        headers: { "content-type": m.contentType, "x-requested-with": "XMLHttpRequest" },
      }))(
        multipart([
          { name: "photo", file: { filename: "strand.jpg", data: Buffer.from([0xff, 0xd8, 0xff]) } },
        ]),
      ),
    });
    expect(res.statusCode).toBe(403);
  });
});

describe("a photo book with its project in the cart", () => {
  async function projectWithPhoto(browser: BrowserSession) {
    const res = await startProject(browser, [{ filename: "strand.jpg", data: await photos.jpeg() }]);
    const page = await browser.follow(res);
    const project = /name="project" value="([\w-]{22})"/.exec(page.body)?.[1] ?? "";
    expect(project).not.toBe("");
    return { project, url: res.headers.location as string };
  }

  const add = (browser: BrowserSession, project: string, quantity = "1") =>
    browser.form("/winkelwagen/inhoud", {
      product: "exclusive-photobook",
      orientation: "portrait",
      size: "21x30",
      project,
      quantity,
    });

  it("is a line of its own, showing its project, and adding it again raises its quantity", async () => {
    const browser = new BrowserSession(shop.app);
    const { project, url } = await projectWithPhoto(browser);
    const res = await add(browser, project);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe("/winkelwagen/inhoud");
    await browser.get(url);
    await add(browser, project, "2");
    // The same book without a project is another line.
    await browser.get("/assortiment/fotoboeken/exclusief-fotoboek?orientatie=staand&formaat=21x30");
    await browser.form("/winkelwagen/inhoud", {
      product: "exclusive-photobook",
      orientation: "portrait",
      size: "21x30",
      quantity: "1",
    });
    const cart = await browser.get("/winkelwagen/inhoud");
    const html = plain(cart.body);
    const lines = html.match(/<li class="cart-line">.*?<\/li>/g) ?? [];
    expect(lines).toHaveLength(2);
    const projectLine = lines.find((l) => l.includes("Fotoboekproject")) ?? "";
    expect(projectLine).toContain(`Fotoboekproject met 1 foto · <a href="${url}">Bekijk je project`);
    expect(projectLine).toContain(`<input type="hidden" name="project" value="${project}">`);
    expect(projectLine).toMatch(/name="quantity"[^>]*value="3"|value="3"[^>]*name="quantity"/);
    expect(projectLine).toContain("€ 149,97");
    expect(html).toContain("4 artikelen");
  });

  it("goes through checkout with its project: the order keeps it, and the confirmation and mail say so", async () => {
    const browser = new BrowserSession(shop.app);
    const { project } = await projectWithPhoto(browser);
    await add(browser, project, "2");
    const cart = await browser.get("/winkelwagen/inhoud");
    // Changing the project's line through its own form changes that line only.
    const changed = await browser.form("/winkelwagen/inhoud", {
      intent: "update",
      product: "exclusive-photobook",
      orientation: "portrait",
      size: "21x30",
      project: /name="project" value="([^"]+)"/.exec(cart.body)?.[1] ?? "",
      quantity: "1",
    });
    expect(changed.statusCode).toBe(303);
    await browser.get("/winkelwagen/adres");
    const address = await browser.form("/winkelwagen/adres", {
      name: "Anna de Vries",
      street: "Dorpsstraat 12",
      postcode: "1234 AB",
      city: "Utrecht",
      country: "NL",
      email: "anna.project@example.nl",
    });
    expect(address.statusCode).toBe(303);
    const overview = await browser.get("/winkelwagen/overzicht");
    expect(plain(overview.body)).toContain("Fotoboekproject met 1 foto");
    const placed = await placeFromOverview(browser, overview);
    expect(placed.statusCode).toBe(303);
    // Placing leads to the test provider's payment page; paying leads back to the order page.
    const paying = await browser.follow(placed);
    expect(paying.statusCode).toBe(200);
    const paid = await browser.form(placed.headers.location ?? "", { outcome: "paid" });
    expect(paid.statusCode).toBe(303);
    const confirmation = await browser.follow(paid);
    expect(confirmation.statusCode).toBe(200);
    expect(plain(confirmation.body)).toContain("Fotoboekproject met 1 foto");

    const db = shop.database.db;
    const order = await db
      .selectFrom("orders")
      .select("id")
      .where("email", "=", "anna.project@example.nl")
      .executeTakeFirstOrThrow();
    const lines = await db.selectFrom("order_lines").selectAll().where("order_id", "=", order.id).execute();
    expect(lines).toEqual([expect.objectContaining({ project_id: project, quantity: 1 })]);
    const mail = await db
      .selectFrom("outbox")
      .select("text_body")
      .where("to_address", "=", "anna.project@example.nl")
      .executeTakeFirstOrThrow();
    expect(mail.text_body).toContain("je eigen fotoboekproject");
  });

  it("waits in the cart when its last photo is removed: the line says why, and no order is placed", async () => {
    const browser = new BrowserSession(shop.app);
    const { project, url } = await projectWithPhoto(browser);
    await add(browser, project);
    await browser.get("/winkelwagen/adres");
    await browser.form("/winkelwagen/adres", {
      name: "Bas Jansen",
      street: "Kerkstraat 3",
      postcode: "3511 AB",
      city: "Utrecht",
      country: "NL",
      email: "bas.empty-book@example.nl",
    });
    const overview = await browser.get("/winkelwagen/overzicht");
    expect(overview.statusCode).toBe(200);

    // In another tab, the shopper takes the book's only photo out.
    const projectPage = await browser.get(url);
    const photo = /name="remove" value="([\w-]{22})"/.exec(projectPage.body)?.[1] ?? "";
    expect((await browser.form("/fotoboek-maken/fotos/verwijderen", { remove: photo })).statusCode).toBe(303);

    const placed = await placeFromOverview(browser, overview);
    expect(placed.statusCode).toBe(303);
    expect(placed.headers.location).toBe("/winkelwagen/inhoud");
    const orders = await shop.database.db
      .selectFrom("orders")
      .select("id")
      .where("email", "=", "bas.empty-book@example.nl")
      .execute();
    expect(orders).toEqual([]);

    const cart = plain((await browser.get("/winkelwagen/inhoud")).body);
    expect(cart).toContain("Fotoboekproject met 0 foto&#39;s");
    expect(cart).toContain("Dit fotoboek heeft geen foto&#39;s meer.");
    expect(cart).not.toContain("Verder naar je adres");
    const again = await browser.get("/winkelwagen/overzicht");
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe("/winkelwagen/inhoud");
  });

  it("is refused with a clear message when the project is not this shopper's, never a server error", async () => {
    const owner = new BrowserSession(shop.app);
    const { project } = await projectWithPhoto(owner);
    const stranger = new BrowserSession(shop.app);
    await stranger.get("/assortiment/fotoboeken/exclusief-fotoboek");
    for (const value of [project, "bestaat-niet", ""]) {
      const res = await add(stranger, value);
      expect(res.statusCode).toBe(422);
      expect(res.body).toContain("Dit fotoboekproject bestaat niet (meer)");
      expect(res.body).toContain("Er is niets aan je winkelwagen toegevoegd.");
    }
    const cart = await stranger.get("/winkelwagen/inhoud");
    expect(cart.body).toContain("Je winkelwagen is leeg");
  });

  it("is refused while the project has no photos (its last one removed), in German too", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get("/fotobuch-gestalten?fotobuch=exklusives-fotobuch");
    const res = await browser.post(
      "/fotobuch-gestalten",
      multipart([
        { name: "_csrf", value: browser.token },
        { name: "product", value: "exclusive-photobook" },
        { name: "format", value: "landscape:30x21" },
        { name: "photos", file: { filename: "strand.jpg", data: await photos.jpeg() } },
      ]),
    );
    const withPhoto = await browser.follow(res);
    const photo = /name="remove" value="([\w-]{22})"/.exec(withPhoto.body)?.[1] ?? "";
    const removed = await browser.form("/fotobuch-gestalten/fotos/entfernen", { remove: photo });
    expect(removed.statusCode).toBe(303);
    const page = await browser.follow(removed);
    expect(page.body).toContain("strand.jpg wurde gelöscht.");
    expect(page.body).toContain("Fügen Sie zuerst mindestens ein Foto hinzu");
    const project =
      /\/fotobuch-gestalten\/projekt\/([\w-]{22})/.exec(res.headers.location as string)?.[1] ?? "";
    const refused = await browser.form("/einkaufswagen/inhalt", {
      product: "exclusive-photobook",
      orientation: "landscape",
      size: "30x21",
      project,
      quantity: "1",
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain("Ihr Fotobuch hat noch keine Fotos");
    expect(refused.body).not.toContain("Fotoboek");
  });

  it("asks for a valid quantity on the project page, keeping what was typed", async () => {
    const browser = new BrowserSession(shop.app);
    const { project } = await projectWithPhoto(browser);
    const res = await add(browser, project, "0");
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain("Kies een aantal van 1 tot en met 99.");
    expect(res.body).toMatch(/id="project-cart-quantity"[^>]*value="0"/);
  });
});

describe("removing a photo", () => {
  const thumbnailOf = (html: string) => /src="(\/uploads\/[\w-]{22}\/thumbnail\.jpg)"/.exec(html)?.[1] ?? "";
  const filesOf = (id: string) => [
    join(shop.config.dataDir, "uploads", "originals", id),
    join(shop.config.dataDir, "uploads", "thumbnails", `${id}.jpg`),
  ];

  it("takes a page out of the book without JavaScript: its row and files go, the page says so", async () => {
    const browser = new BrowserSession(shop.app);
    const res = await startProject(browser, [
      { filename: "strand.jpg", data: await photos.jpeg() },
      { filename: "bos.png", data: await photos.png() },
    ]);
    const page = await browser.follow(res);
    expect(page.body).toMatch(
      /<form class="book-preview__remove" method="post" action="\/fotoboek-maken\/fotos\/verwijderen">/,
    );
    expect(page.body).toContain('aria-label="Verwijder strand.jpg uit je fotoboek"');
    const id = /name="remove" value="([\w-]{22})"/.exec(page.body)?.[1] ?? "";
    for (const file of filesOf(id)) expect(existsSync(file)).toBe(true);

    const removed = await browser.form("/fotoboek-maken/fotos/verwijderen", { remove: id });
    expect(removed.statusCode).toBe(303);
    expect(removed.headers.location).toBe(`${res.headers.location}#preview`);
    const after = plain((await browser.follow(removed)).body);
    expect(after).toContain("strand.jpg is verwijderd.");
    expect(after).toContain('alt="Pagina 1: bos.png"');
    expect(after).not.toContain('alt="Pagina 2');
    for (const file of filesOf(id)) expect(existsSync(file)).toBe(false);
    expect(await shop.database.db.selectFrom("uploads").select("id").where("id", "=", id).execute()).toEqual(
      [],
    );
    expect((await browser.get(`/uploads/${id}/thumbnail.jpg`)).statusCode).toBe(404);
    // Gone from the subscription page's uploads too, and no longer counted.
    const uploadsTab = plain((await browser.get("/abonnement")).body);
    expect(uploadsTab).toContain("1 foto");
    expect(uploadsTab).not.toContain("strand.jpg");
  });

  it("is only for the photo's owner, and refuses a post from another site", async () => {
    const owner = new BrowserSession(shop.app);
    const res = await startProject(owner, [{ filename: "strand.jpg", data: await photos.jpeg() }]);
    const page = await owner.follow(res);
    const id = /name="remove" value="([\w-]{22})"/.exec(page.body)?.[1] ?? "";

    const stranger = new BrowserSession(shop.app);
    await stranger.get(startFor);
    const refused = await stranger.form("/fotoboek-maken/fotos/verwijderen", { remove: id });
    expect(refused.statusCode).toBe(404);
    const forged = await owner.form(
      "/fotoboek-maken/fotos/verwijderen",
      { remove: id },
      { "sec-fetch-site": "cross-site" },
    );
    expect(forged.statusCode).toBe(403);
    expect(thumbnailOf((await owner.get(res.headers.location as string)).body)).toBe(
      `/uploads/${id}/thumbnail.jpg`,
    );
    for (const file of filesOf(id)) expect(existsSync(file)).toBe(true);
  });

  it("answers the uploader with 204, and deletes a photo that was only staged", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get(startFor);
    const staged = await browser.post(
      "/fotoboek-maken/fotos",
      multipart([{ name: "photo", file: { filename: "los.jpg", data: await photos.jpeg() } }]),
      { "x-requested-with": "XMLHttpRequest", "x-csrf-token": browser.token },
    );
    // The uploader's list item carries its own remove button, which the island takes over.
    expect(staged.body).toMatch(
      /formaction="\/fotoboek-maken\/fotos\/verwijderen"[^>]*name="remove"[^>]*data-upload-remove/,
    );
    const id = /name="upload" value="([\w-]{22})"/.exec(staged.body)?.[1] ?? "";
    const res = await browser.post(
      "/fotoboek-maken/fotos/verwijderen",
      {
        payload: new URLSearchParams({ remove: id }).toString(),
        contentType: "application/x-www-form-urlencoded",
      },
      { "x-requested-with": "XMLHttpRequest", "x-csrf-token": browser.token },
    );
    expect(res.statusCode).toBe(204);
    for (const file of filesOf(id)) expect(existsSync(file)).toBe(false);
    const again = await browser.post(
      "/fotoboek-maken/fotos/verwijderen",
      {
        payload: new URLSearchParams({ remove: id }).toString(),
        contentType: "application/x-www-form-urlencoded",
      },
      { "x-requested-with": "XMLHttpRequest", "x-csrf-token": browser.token },
    );
    expect(again.statusCode).toBe(404);
  });

  it("from the start form without JavaScript, comes back to the form with the other photos still chosen", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get(startFor);
    // A format the book does not come in: the form comes back with both photos staged.
    const refused = await browser.post(
      start,
      multipart([
        { name: "_csrf", value: browser.token },
        { name: "product", value: "exclusive-photobook" },
        { name: "format", value: "portrait:99x99" },
        { name: "photos", file: { filename: "strand.jpg", data: await photos.jpeg() } },
        { name: "photos", file: { filename: "bos.png", data: await photos.png() } },
      ]),
    );
    expect(refused.statusCode).toBe(422);
    const [strand, bos] = [...refused.body.matchAll(/name="upload" value="([\w-]{22})"/g)].map(
      (m) => m[1] ?? "",
    );
    expect(refused.body).toContain('aria-label="Verwijder strand.jpg uit je keuze"');
    // The remove button sends the whole form, urlencoded, to the remove address.
    const removed = await browser.post(start.replace(/$/, "/fotos/verwijderen"), {
      payload: new URLSearchParams([
        ["_csrf", browser.token],
        ["product", "exclusive-photobook"],
        ["format", "portrait:21x30"],
        ["photos", ""],
        ["upload", strand ?? ""],
        ["upload", bos ?? ""],
        ["remove", strand ?? ""],
      ]).toString(),
      contentType: "application/x-www-form-urlencoded",
    });
    expect(removed.statusCode).toBe(303);
    expect(removed.headers.location).toBe(
      `/fotoboek-maken?fotoboek=exclusief-fotoboek&orientatie=staand&formaat=21x30&foto=${bos}`,
    );
    const form = await browser.follow(removed);
    expect(form.statusCode).toBe(200);
    expect(form.headers["cache-control"]).toBe("private, no-store");
    expect(plain(form.body)).toContain("strand.jpg is verwijderd.");
    expect(form.body).toContain(`<input type="hidden" name="upload" value="${bos}">`);
    expect(form.body).not.toContain(strand);
    expect(form.body).toContain('<option value="portrait:21x30" selected>');
    // Someone else with that address sees none of it.
    const stranger = await shop.app.inject({ url: removed.headers.location as string });
    expect(stranger.body).not.toContain(bos);
    expect(stranger.body).not.toContain("strand.jpg is verwijderd");

    const started = await browser.post(
      start,
      multipart([
        { name: "_csrf", value: browser.token },
        { name: "product", value: "exclusive-photobook" },
        { name: "format", value: "portrait:21x30" },
        { name: "upload", value: bos ?? "" },
      ]),
    );
    const project = await browser.follow(started);
    expect(project.body).toContain('alt="Pagina 1: bos.png"');
    expect(project.body).not.toContain("strand.jpg");
  });

  it("from the subscription page's uploads tab, comes back to that tab", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get(startFor);
    await browser.post(
      "/fotoboek-maken/fotos",
      multipart([{ name: "photo", file: { filename: "los.jpg", data: await photos.jpeg() } }]),
      { "x-requested-with": "XMLHttpRequest", "x-csrf-token": browser.token },
    );
    const tab = await browser.get("/abo");
    expect(tab.body).toContain('aria-label="los.jpg aus Ihren Uploads löschen"');
    const id = /name="remove" value="([\w-]{22})"/.exec(tab.body)?.[1] ?? "";
    const res = await browser.form("/fotobuch-gestalten/fotos/entfernen", { remove: id, back: "uploads" });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe("/abo#uploads");
    const after = plain((await browser.follow(res)).body);
    expect(after).toContain("los.jpg wurde gelöscht.");
    expect(after).toContain("Sie haben noch keine Fotos hochgeladen.");
  });

  it("keeps the photos of a book that was ordered: no remove buttons, and a post is refused", async () => {
    const browser = new BrowserSession(shop.app);
    const res = await startProject(browser, [{ filename: "strand.jpg", data: await photos.jpeg() }]);
    const page = await browser.follow(res);
    const project = /name="project" value="([\w-]{22})"/.exec(page.body)?.[1] ?? "";
    const photo = /name="remove" value="([\w-]{22})"/.exec(page.body)?.[1] ?? "";
    await orderForBook(shop.database.db, project, `ordered-${project}`, "cart-for-test");
    const again = await browser.get(res.headers.location as string);
    expect(again.body).not.toContain('name="remove"');
    expect((await browser.get("/abonnement")).body).not.toContain('name="remove"');
    const refused = await browser.form("/fotoboek-maken/fotos/verwijderen", { remove: photo });
    expect(refused.statusCode).toBe(409);
    for (const file of filesOf(photo)) expect(existsSync(file)).toBe(true);
  });
});
