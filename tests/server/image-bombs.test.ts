import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";
import { BrowserSession } from "../support/browser-session.ts";
import {
  expectOnlyKept as expectOnlyKeptOf,
  multipart,
  photos,
  startBookWith as startBook,
  storedUploads as stored,
} from "../support/photos.ts";

const bomb = photos.pngBomb(16000);
const plain = (s: string) => s.replace(/\s+/g, " ");
/** Nothing but `kept` more photos since `before`, and no byte of the bomb. */
const expectOnlyKept = (shop: TestShop, before: Awaited<ReturnType<typeof stored>>, kept: string[]) =>
  expectOnlyKeptOf(shop, before, kept, [bomb]);
const ajax = (browser: BrowserSession) => ({
  "x-requested-with": "XMLHttpRequest",
  "x-csrf-token": browser.token,
});

describe("a 16000 × 16000 PNG of 31 KB, at the default limit of 50 megapixel", () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await testShop();
  });
  afterAll(() => shop.close());

  it("is the image bomb of the finding: tiny on disk, a quarter gigapixel declared", () => {
    expect(bomb.length).toBeLessThan(32 * 1024);
    expect(bomb.readUInt32BE(16)).toBe(16000);
    expect(bomb.readUInt32BE(20)).toBe(16000);
  });

  it("is refused for a shopper with JavaScript, while the photo sent next to it is kept", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get("/fotoboek-maken?fotoboek=exclusief-fotoboek");
    const before = await stored(shop);
    const res = await browser.post(
      "/fotoboek-maken/fotos",
      multipart([
        { name: "photo", file: { filename: "bom.png", data: bomb, type: "image/png" } },
        { name: "photo", file: { filename: "strand.jpg", data: await photos.jpeg(), type: "image/jpeg" } },
      ]),
      ajax(browser),
    );
    expect(res.statusCode).toBe(422);
    expect(plain(res.body)).toContain("bom.png is te groot: hoogstens 50 megapixel.");
    expect(res.body.match(/<li class="staged-photo" data-upload-item>/g)).toHaveLength(1);
    expect(res.body).toContain("strand.jpg");
    await expectOnlyKept(shop, before, ["strand.jpg"]);
  });

  it("is refused in German for a shopper with JavaScript at the German address", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get("/fotobuch-gestalten?fotobuch=exklusives-fotobuch");
    const before = await stored(shop);
    const res = await browser.post(
      "/fotobuch-gestalten/fotos",
      multipart([{ name: "photo", file: { filename: "bombe.png", data: bomb, type: "image/png" } }]),
      ajax(browser),
    );
    expect(res.statusCode).toBe(422);
    expect(plain(res.body)).toContain("bombe.png ist zu groß: höchstens 50 Megapixel.");
    expect(res.body).not.toContain("data-upload-item");
    await expectOnlyKept(shop, before, []);
  });

  it("is refused for a shopper without JavaScript starting a book, and the other photos of the post make the book", async () => {
    const browser = new BrowserSession(shop.app);
    const before = await stored(shop);
    const res = await startBook(browser, "nl", [
      { filename: "een.jpg", data: await photos.jpeg(), type: "image/jpeg" },
      { filename: "bom.png", data: bomb, type: "image/png" },
      { filename: "twee.png", data: await photos.png(), type: "image/png" },
    ]);
    expect(res.statusCode).toBe(303);
    const page = plain((await browser.follow(res)).body);
    expect(page).toContain("2 foto&#39;s toegevoegd aan je fotoboek.");
    expect(page).toContain("1 bestand is niet toegevoegd");
    expect(page).toContain("bom.png is te groot: hoogstens 50 megapixel.");
    expect(page).toContain('alt="Pagina 1: een.jpg"');
    expect(page).toContain('alt="Pagina 2: twee.png"');
    await expectOnlyKept(shop, before, ["een.jpg", "twee.png"]);
  });

  it("is refused in German for a shopper without JavaScript who sent only the bomb, and the form asks again", async () => {
    const browser = new BrowserSession(shop.app);
    const before = await stored(shop);
    const res = await startBook(browser, "de", [{ filename: "bombe.png", data: bomb, type: "image/png" }]);
    expect(res.statusCode).toBe(422);
    const page = plain(res.body);
    expect(page).toContain("bombe.png ist zu groß: höchstens 50 Megapixel.");
    expect(page).toContain("Wählen Sie mindestens ein Foto für Ihr Fotobuch aus.");
    expect(page).toContain('<option value="portrait:21x30" selected>');
    await expectOnlyKept(shop, before, []);
  });

  it("leaves every earlier page of a book in place when it is added to the book later", async () => {
    const browser = new BrowserSession(shop.app);
    const started = await startBook(browser, "nl", [{ filename: "eerder.jpg", data: await photos.jpeg() }]);
    const projectUrl = started.headers.location as string;
    await browser.follow(started);
    const before = await stored(shop);
    const res = await browser.post(
      `${projectUrl}/fotos`,
      multipart([
        { name: "_csrf", value: browser.token },
        { name: "photos", file: { filename: "bom.png", data: bomb, type: "image/png" } },
        { name: "photos", file: { filename: "later.webp", data: await photos.webp(), type: "image/webp" } },
      ]),
    );
    expect(res.statusCode).toBe(303);
    const page = plain((await browser.follow(res)).body);
    expect(page).toContain("bom.png is te groot: hoogstens 50 megapixel.");
    expect(page).toContain('alt="Pagina 1: eerder.jpg"');
    expect(page).toContain('alt="Pagina 2: later.webp"');
    await expectOnlyKept(shop, before, ["later.webp"]);
  });
});

describe("a lower UPLOAD_MAX_PIXELS", () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await testShop({ env: { UPLOAD_MAX_PIXELS: "1500000" } });
  });
  afterAll(() => shop.close());

  it("refuses an ordinary photo above it, names the limit as the language writes it, and keeps one below it", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get("/fotoboek-maken?fotoboek=exclusief-fotoboek");
    const before = await stored(shop);
    const res = await browser.post(
      "/fotoboek-maken/fotos",
      multipart([
        // 1600 × 1200 is 1.92 megapixel; 1200 × 900 is 1.08.
        { name: "photo", file: { filename: "groot.jpg", data: await photos.jpeg(1600, 1200) } },
        { name: "photo", file: { filename: "klein.jpg", data: await photos.jpeg(1200, 900) } },
      ]),
      ajax(browser),
    );
    expect(res.statusCode).toBe(422);
    expect(plain(res.body)).toContain("groot.jpg is te groot: hoogstens 1,5 megapixel.");
    expect(res.body).toContain("klein.jpg");
    await expectOnlyKept(shop, before, ["klein.jpg"]);

    const german = new BrowserSession(shop.app);
    const refused = await startBook(german, "de", [
      { filename: "gross.jpg", data: await photos.jpeg(1600, 1200) },
    ]);
    expect(refused.statusCode).toBe(422);
    expect(plain(refused.body)).toContain("gross.jpg ist zu groß: höchstens 1,5 Megapixel.");
  });
});

describe("a photo whose decoding takes longer than UPLOAD_DECODE_TIMEOUT_MS", () => {
  // Let through by its size on purpose (2 gigapixel allowed), this 40000 × 40000 PNG takes
  // libvips seconds to decode: far past half a second, which a normal photo needs a fraction of.
  const slow = photos.pngBomb(40000);
  let shop: TestShop;
  beforeAll(async () => {
    shop = await testShop({
      env: { UPLOAD_MAX_PIXELS: "2000000000", UPLOAD_DECODE_TIMEOUT_MS: "500" },
    });
  });
  afterAll(() => shop.close());

  it("is abandoned for a shopper with JavaScript with a message to try again, and the photo before it stays", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get("/fotoboek-maken?fotoboek=exclusief-fotoboek");
    const before = await stored(shop);
    const res = await browser.post(
      "/fotoboek-maken/fotos",
      multipart([
        { name: "photo", file: { filename: "strand.jpg", data: await photos.jpeg(600, 400) } },
        { name: "photo", file: { filename: "traag.png", data: slow, type: "image/png" } },
      ]),
      ajax(browser),
    );
    expect(res.statusCode).toBe(422);
    expect(plain(res.body)).toContain("traag.png kon niet op tijd worden verwerkt, probeer het nog eens.");
    expect(res.body.match(/<li class="staged-photo" data-upload-item>/g)).toHaveLength(1);
    await expectOnlyKept(shop, before, ["strand.jpg"]);
  });

  it("is abandoned in German for a shopper without JavaScript, and the book's earlier pages stay", async () => {
    const browser = new BrowserSession(shop.app);
    const started = await startBook(browser, "de", [
      { filename: "vorher.jpg", data: await photos.jpeg(600, 400) },
    ]);
    expect(started.statusCode).toBe(303);
    const projectUrl = started.headers.location as string;
    await browser.follow(started);
    const before = await stored(shop);
    const res = await browser.post(
      `${projectUrl}/fotos`,
      multipart([
        { name: "_csrf", value: browser.token },
        { name: "photos", file: { filename: "langsam.png", data: slow, type: "image/png" } },
      ]),
    );
    expect(res.statusCode).toBe(303);
    const page = plain((await browser.follow(res)).body);
    expect(page).toContain(
      "langsam.png konnte nicht rechtzeitig verarbeitet werden, bitte versuchen Sie es noch einmal.",
    );
    expect(page).toContain("vorher.jpg");
    await expectOnlyKept(shop, before, []);
    const rows = await shop.database.db.selectFrom("uploads").select("original_name").execute();
    expect(rows.map((r) => r.original_name)).toContain("vorher.jpg");
  });
});
