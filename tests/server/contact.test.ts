import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";

const received = new Date("2026-04-20T08:30:00Z");
let shop: TestShop;
let wakes = 0;
beforeAll(async () => {
  shop = await testShop({
    // Every test posts from the same address; the limit itself is tested on a shop of its own.
    env: { CONTACT_RATE_LIMIT: "1000" },
    now: () => received,
    mailQueued: () => {
      wakes++;
    },
  });
});
afterAll(() => shop.close());

const paths = {
  nl: { form: "/klantenservice/contact", thanks: "/klantenservice/contact/bedankt" },
  de: { form: "/kundenservice/kontakt", thanks: "/kundenservice/kontakt/danke" },
};

const good = {
  name: "Anna de Vries",
  email: "anna@example.nl",
  orderNumber: "FH-123456",
  subject: "delivery",
  question: "Wanneer komt mijn fotoboek? Ik heb het vorige week besteld.",
  website: "",
};

/** Opens the form as a browser does: its cookies and the hidden token. */
async function session(target: TestShop, lang: "nl" | "de") {
  const res = await target.app.inject({ url: paths[lang].form });
  const cookie = res.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  const token = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1] ?? "";
  return { cookie, token };
}

async function post(
  fields: Record<string, string>,
  options: { lang?: "nl" | "de"; ajax?: boolean; csrf?: boolean; target?: TestShop } = {},
) {
  const lang = options.lang ?? "nl";
  const target = options.target ?? shop;
  const { cookie, token } = await session(target, lang);
  return target.app.inject({
    method: "POST",
    url: paths[lang].form,
    headers: {
      cookie,
      "content-type": "application/x-www-form-urlencoded",
      ...(options.ajax ? { "x-requested-with": "XMLHttpRequest" } : {}),
    },
    payload: new URLSearchParams({
      ...fields,
      ...(options.csrf === false ? {} : { _csrf: token }),
    }).toString(),
  });
}

const messages = (target = shop) =>
  target.database.db.selectFrom("contact_messages").selectAll().orderBy("id").execute();
const outbox = (target = shop) => target.database.db.selectFrom("outbox").selectAll().orderBy("id").execute();

async function clear(target = shop) {
  await target.database.db.deleteFrom("contact_messages").execute();
  await target.database.db.deleteFrom("outbox").execute();
}

describe("the contact form page", () => {
  it("is defined once on the server: labels, rules and messages in Dutch", async () => {
    const res = await shop.app.inject({ url: "/klantenservice/contact" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("<h1>Stel je vraag</h1>");
    expect(res.body).toMatch(
      /<form class="form contact-form" method="post" action="\/klantenservice\/contact" data-ajax="true" data-ajax-update="#contact-form-region"/,
    );
    expect(res.body).toMatch(/name="_csrf" value="[^"]+"/);
    expect(res.body).toContain('data-val-required="Dit is een verplicht veld."');
    expect(res.body).toContain('data-val-email="Vul hier een geldig e-mailadres in."');
    expect(res.body).toContain('data-val-maxlength-max="4000"');
    for (const subject of ["Mijn bestelling", "Levering en verzending", "Iets anders"]) {
      expect(res.body).toContain(subject);
    }
    expect(res.body).toMatch(
      /<div class="contact-form__trap" aria-hidden="true">[\s\S]*name="website" value="" tabindex="-1"/,
    );
  });

  it("reads entirely in German at its German address", async () => {
    const res = await shop.app.inject({ url: "/kundenservice/kontakt" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<html lang="de"');
    expect(res.body).toContain("<h1>Stellen Sie Ihre Frage</h1>");
    expect(res.body).toContain('data-val-required="Dieses Feld ist ein Pflichtfeld."');
    expect(res.body).toContain("Bezahlung und Rechnungen");
    expect(res.body).not.toMatch(/Stel je vraag|Verplicht|Versturen/);
  });
});

describe("sending a question", () => {
  it("stores it, queues the copy and the message for customer service, and thanks the shopper (no JavaScript)", async () => {
    await clear();
    const before = wakes;
    const res = await post(good);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe("/klantenservice/contact/bedankt");
    const sent = res.cookies.find((c) => c.name === "contact_sent");
    expect(sent?.httpOnly).toBe(true);
    // Only the thank-you pages get the address, in both languages.
    expect(res.cookies.filter((c) => c.name === "contact_sent").map((c) => c.path)).toEqual([
      "/klantenservice/contact/bedankt",
      "/kundenservice/kontakt/danke",
    ]);

    const [message] = await messages();
    expect(message).toMatchObject({
      locale: "nl",
      name: "Anna de Vries",
      email: "anna@example.nl",
      order_number: "FH-123456",
      subject: "delivery",
      question: good.question,
      received_at: received.toISOString(),
    });
    const mails = await outbox();
    expect(mails.map((m) => [m.kind, m.to_address, m.reply_to, m.locale])).toEqual([
      ["contact-copy", "anna@example.nl", "klantenservice@fotohoek.nl", "nl"],
      ["contact-support", "klantenservice@fotohoek.nl", "anna@example.nl", "nl"],
    ]);
    expect(mails[0]?.subject).toBe("Je vraag aan Fotohoek: Levering en verzending");
    expect(mails[0]?.text_body).toContain("Hallo Anna de Vries,");
    expect(mails[0]?.text_body).toContain(good.question);
    expect(mails[1]?.subject).toBe("Contactformulier: Levering en verzending (bestelling FH-123456)");
    expect(mails[1]?.text_body).toContain(`Kenmerk: ${message?.id}`);
    expect(wakes).toBe(before + 1);

    const thanks = await shop.app.inject({
      url: "/klantenservice/contact/bedankt",
      headers: { cookie: `contact_sent=${sent?.value}` },
    });
    expect(thanks.statusCode).toBe(200);
    expect(thanks.body).toContain("<h1>Bedankt voor je vraag</h1>");
    expect(thanks.body).toContain(
      "Bedankt voor je vraag! We sturen je binnen 24 uur een antwoord op anna@example.nl. Een kopie van je vraag is naar dat adres gestuurd.",
    );
    expect(thanks.headers["cache-control"]).toBe("private, no-store");
  });

  it("thanks in German, with the address filled in, and writes the mails in German", async () => {
    await clear();
    const res = await post(
      { ...good, name: "Jürgen Groß", email: "juergen@example.de", orderNumber: "", subject: "payment" },
      { lang: "de" },
    );
    expect(res.headers.location).toBe("/kundenservice/kontakt/danke");
    const cookie = res.cookies.find((c) => c.name === "contact_sent");
    const thanks = await shop.app.inject({
      url: "/kundenservice/kontakt/danke",
      headers: { cookie: `contact_sent=${cookie?.value}` },
    });
    expect(thanks.body).toContain(
      "Vielen Dank für Ihre Frage! Wir senden Ihnen innerhalb von 24 Stunden eine Antwort an juergen@example.de. Eine Kopie Ihrer Frage wurde an diese Adresse geschickt.",
    );
    const mails = await outbox();
    expect(mails[0]?.subject).toBe("Ihre Frage an Fotohoek: Bezahlung und Rechnungen");
    expect(mails[0]?.text_body).toContain("Guten Tag Jürgen Groß,");
    expect(mails[1]?.subject).toBe("Kontaktformular: Bezahlung und Rechnungen");
    expect((await messages())[0]?.order_number).toBeNull();
  });

  it("accepts an order number pasted with spaces around it and stores it without them", async () => {
    await clear();
    const form = await shop.app.inject({ url: paths.nl.form });
    // The browser checks the same rule: spaces around the number are allowed there too.
    const input = /<input[^>]*name="orderNumber"[^>]*>/.exec(form.body)?.[0] ?? "";
    expect(input).toContain('data-val-regex-pattern=" *[A-Za-z0-9]+([ -][A-Za-z0-9]+)* *"');

    const res = await post({ ...good, name: "  Anna de Vries ", orderNumber: "  FH-123456 " });
    expect(res.statusCode).toBe(303);
    const [message] = await messages();
    expect(message?.order_number).toBe("FH-123456");
    expect(message?.name).toBe("Anna de Vries");
    const mails = await outbox();
    expect(mails[1]?.subject).toBe("Contactformulier: Levering en verzending (bestelling FH-123456)");
    expect(mails[0]?.text_body).toContain("\nBestelnummer: FH-123456\n");

    // Spaces inside the number are still checked: only one between two groups.
    const inside = await post({ ...good, orderNumber: "FH  123456" });
    expect(inside.statusCode).toBe(422);
    expect(inside.body).toContain(
      "Een bestelnummer bestaat uit letters, cijfers en streepjes, zoals FH-123456.",
    );
  });

  it("answers an ajax post with the thank-you text in place of the form", async () => {
    await clear();
    const res = await post(good, { ajax: true });
    expect(res.statusCode).toBe(200);
    expect(res.headers.vary).toContain("X-Requested-With");
    expect(res.body).not.toContain("<html");
    expect(res.body).toContain('<div class="contact-thanks form-success" role="status">');
    expect(res.body).toContain("We sturen je binnen 24 uur een antwoord op anna@example.nl.");
    expect(res.body).not.toContain("<form");
    expect(await messages()).toHaveLength(1);
  });

  it("does not show a thank-you page to someone who sent nothing", async () => {
    const res = await shop.app.inject({ url: "/klantenservice/contact/bedankt" });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe("/klantenservice/contact");
    const forged = await shop.app.inject({
      url: "/klantenservice/contact/bedankt",
      headers: { cookie: "contact_sent=someone%40example.nl" },
    });
    expect(forged.statusCode).toBe(303);
  });
});

describe("bad input to the contact form", () => {
  it("without a CSRF token is refused with 403 and stores nothing", async () => {
    await clear();
    const res = await post(good, { csrf: false });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain("Deze pagina is verlopen");
    expect(await messages()).toEqual([]);
  });

  it("with missing fields comes back with a message per field and everything typed (422)", async () => {
    const res = await post({ ...good, name: "  ", subject: "", question: "" });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain("<h1>Stel je vraag</h1>");
    expect(res.body).toMatch(
      /id="contact-name-error"[^>]*><span class="visually-hidden">Fout: <\/span>Dit is een verplicht veld\./,
    );
    expect(res.body).toMatch(
      /id="contact-subject-error"[^>]*><span class="visually-hidden">Fout: <\/span>Dit is een verplicht veld\./,
    );
    expect(res.body).toMatch(
      /id="contact-question-error"[^>]*><span class="visually-hidden">Fout: <\/span>Dit is een verplicht veld\./,
    );
    expect(res.body).toContain('value="anna@example.nl"');
    expect(res.body).toContain('value="FH-123456"');
    expect(res.body).toMatch(/<a href="#contact-name">Dit is een verplicht veld\.<\/a>/);
    expect(await messages()).toEqual([]);
  });

  it("with a bad e-mail address says so, in German on the German form", async () => {
    const nl = await post({ ...good, email: "anna@" });
    expect(nl.statusCode).toBe(422);
    expect(nl.body).toContain("Vul hier een geldig e-mailadres in.");
    const de = await post({ ...good, email: "anna at example.de" }, { lang: "de" });
    expect(de.statusCode).toBe(422);
    expect(de.body).toContain("Geben Sie bitte eine gültige E-Mail-Adresse ein.");
    expect(de.body).toContain('value="anna at example.de"');
  });

  it("that is too long is refused with the maximum, the text kept", async () => {
    const long = "x".repeat(4001);
    const res = await post({ ...good, name: "A".repeat(81), question: long });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain("Vul hier maximaal 80 tekens in.");
    expect(res.body).toContain("Vul hier maximaal 4000 tekens in.");
    expect(res.body).toContain(`>${long}</textarea>`);
    const tooShort = await post({ ...good, question: "Hallo?" });
    expect(tooShort.body).toContain("Vul hier minimaal 10 tekens in.");
  });

  it("cannot inject mail headers through the name, the e-mail address or the subject", async () => {
    await clear();
    const attempts = [
      { name: "Anna\r\nBcc: everyone@example.com" },
      { name: "Anna\nSubject: spam" },
      { email: "anna@example.nl\r\nBcc: everyone@example.com" },
      { email: "anna@example.nl,everyone@example.com" },
      { subject: "order\r\nBcc: everyone@example.com" },
      { orderNumber: "1\r\nBcc: everyone@example.com" },
    ];
    for (const attempt of attempts) {
      const res = await post({ ...good, ...attempt });
      expect(res.statusCode, JSON.stringify(attempt)).toBe(422);
    }
    const nameRes = await post({ ...good, name: "Anna\r\nBcc: everyone@example.com" });
    expect(nameRes.body).toContain("Gebruik hier alleen gewone tekens, zonder regeleinden.");
    const subjectRes = await post({ ...good, subject: "order\r\nBcc: x@example.com" });
    expect(subjectRes.body).toContain("Kies een van de mogelijkheden.");
    expect(await messages()).toEqual([]);
    expect(await outbox()).toEqual([]);
  });

  it("that a robot filled into the hidden field is answered as sent, and dropped", async () => {
    await clear();
    const res = await post({ ...good, website: "https://spam.example" });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe("/klantenservice/contact/bedankt");
    const ajax = await post({ ...good, website: "spam" }, { ajax: true });
    expect(ajax.statusCode).toBe(200);
    expect(ajax.body).toContain("contact-thanks");
    expect(await messages()).toEqual([]);
    expect(await outbox()).toEqual([]);
  });
});

describe("when the message cannot be stored", () => {
  it("shows the spec's text 2 with the form and everything typed; no mail goes out for it", async () => {
    const broken = await testShop();
    try {
      // The outbox is gone: the message's transaction fails as a whole.
      await broken.database.db.schema.dropTable("outbox").execute();
      const res = await post(good, { target: broken });
      expect(res.statusCode).toBe(503);
      expect(res.body).toContain(
        "Het contactformulier kan nu niet worden verstuurd. Probeer het over een paar minuten opnieuw of neem contact op met de klantenservice.",
      );
      expect(res.body).toContain('<div class="notice notice--error contact-notice" role="alert">');
      expect(res.body).toContain('href="tel:+31851234567"');
      expect(res.body).toContain('value="Anna de Vries"');
      expect(res.body).toContain(`>${good.question}</textarea>`);
      expect(await messages(broken)).toEqual([]);

      const ajax = await post(good, { target: broken, ajax: true, lang: "de" });
      expect(ajax.statusCode).toBe(503);
      expect(ajax.headers["x-ajax-fragment"]).toBe("true");
      expect(ajax.body).not.toContain("<html");
      expect(ajax.body).toContain("Das Kontaktformular kann gerade nicht gesendet werden.");
      expect(ajax.body).toContain('value="anna@example.nl"');
    } finally {
      await broken.close();
    }
  });
});

describe("a client that sends too many messages", () => {
  it("gets a localized 429 page with the form and everything typed", async () => {
    const limited = await testShop({ env: { CONTACT_RATE_LIMIT: "2" } });
    try {
      expect((await post(good, { target: limited })).statusCode).toBe(303);
      expect((await post(good, { target: limited })).statusCode).toBe(303);
      const res = await post(good, { target: limited });
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
      expect(res.body).toContain('<html lang="nl"');
      expect(res.body).toContain("Je hebt kort na elkaar veel berichten verstuurd.");
      expect(res.body).toContain('value="Anna de Vries"');
      const de = await post(good, { target: limited, lang: "de", ajax: true });
      expect(de.statusCode).toBe(429);
      expect(de.headers["x-ajax-fragment"]).toBe("true");
      expect(de.body).toContain("Sie haben kurz hintereinander viele Nachrichten gesendet.");
      expect(await messages(limited)).toHaveLength(2);
    } finally {
      await limited.close();
    }
  });

  it("is not locked out by mistakes corrected without JavaScript: refused posts are not counted as messages", async () => {
    const limited = await testShop({ env: { CONTACT_RATE_LIMIT: "2" } });
    try {
      for (const mistake of [{ email: "" }, { email: "anna@" }, { question: "Hallo?" }, { name: "" }]) {
        const res = await post({ ...good, ...mistake }, { target: limited });
        expect(res.statusCode, JSON.stringify(mistake)).toBe(422);
      }
      expect((await post(good, { target: limited })).statusCode).toBe(303);
      expect((await post({ ...good, email: "" }, { target: limited })).statusCode).toBe(422);
      expect((await post(good, { target: limited })).statusCode).toBe(303);
      // The limit itself still holds for messages.
      expect((await post(good, { target: limited })).statusCode).toBe(429);
      expect(await messages(limited)).toHaveLength(2);
    } finally {
      await limited.close();
    }
  });

  it("that floods the form with refused posts is stopped too, at a far higher allowance", async () => {
    const limited = await testShop({ env: { CONTACT_RATE_LIMIT: "2" } });
    try {
      // Five times the message limit: ten posts, whatever they hold.
      for (let i = 0; i < 10; i++) {
        expect((await post({ ...good, email: "" }, { target: limited })).statusCode).toBe(422);
      }
      const refused = await post({ ...good, email: "" }, { target: limited, lang: "de" });
      expect(refused.statusCode).toBe(429);
      expect(refused.body).toContain('<html lang="de"');
      expect(refused.body).toContain("Sie haben kurz hintereinander viele Nachrichten gesendet.");
      expect(refused.body).toContain('value="Anna de Vries"');
      expect((await post(good, { target: limited })).statusCode).toBe(429);
      expect(await messages(limited)).toEqual([]);
    } finally {
      await limited.close();
    }
  });
});
