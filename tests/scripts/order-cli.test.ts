import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../server/config.ts";
import { orderNumber } from "../../server/domain/order-number.ts";
import { type Database, openDatabase } from "../../server/store/database.ts";
import { migrateToLatest } from "../../server/store/migrate.ts";
import { orderLifecycleRepository } from "../../server/store/order-lifecycle-repository.ts";
import { orderRow } from "../support/orders.ts";

const execute = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "order-cli-"));
const databaseUrl = `sqlite://${join(dir, "shop.db")}`;
let database: Database;

beforeAll(async () => {
  database = openDatabase(databaseUrl);
  await migrateToLatest(database);
});
afterAll(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `npm run order -- …` as staff would, against the test's database file. */
async function order(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execute(
      process.execPath,
      ["--import", "tsx", "scripts/order.ts", ...args],
      {
        cwd: projectRoot,
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          DATA_DIR: dir,
          COOKIE_SECRET: "order-cli-test-secret-0123456789abcdef",
          LOG_LEVEL: "silent",
        },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== "number") throw err;
    return { code: failed.code, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

let keys = 0;

/** An order as the checkout places it: one photo book, awaiting payment, in the shopper's language. */
async function placeOrder(locale: "nl" | "de"): Promise<number> {
  keys++;
  const german = {
    locale,
    name: "Jonas",
    street: "Hauptstraße 5",
    postcode: "10115",
    city: "Berlin",
    country: "DE",
  };
  const row = await database.db
    .insertInto("orders")
    .values({
      ...orderRow(`key-${String(keys).padStart(18, "0")}`, `cart-${keys}`),
      ...(locale === "de" ? { ...german, email: "jonas@example.de" } : {}),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const orderId = Number(row.id);
  await database.db
    .insertInto("order_lines")
    .values({
      order_id: orderId,
      position: 1,
      product_id: "exclusive-photobook",
      orientation: "portrait",
      size_id: "21x30",
      product_name: locale === "de" ? "Exklusives Fotobuch" : "Exclusief fotoboek",
      quantity: 1,
      unit_cents: 4999,
      total_cents: 4999,
      project_id: null,
    })
    .execute();
  return orderId;
}

async function placePaidOrder(locale: "nl" | "de"): Promise<number> {
  const orderId = await placeOrder(locale);
  const paid = await orderLifecycleRepository(database.db).applyOrderEvent(
    orderId,
    { type: "payment_paid", paymentId: `tr_test_${orderId}` },
    new Date(),
  );
  expect(paid.kind).toBe("changed");
  return orderId;
}

async function statusOf(orderId: number): Promise<string | undefined> {
  const row = await database.db
    .selectFrom("orders")
    .select("status")
    .where("id", "=", orderId)
    .executeTakeFirst();
  return row?.status;
}

async function stepsOf(orderId: number): Promise<string[]> {
  const transitions = await orderLifecycleRepository(database.db).transitionsOf(orderId);
  return transitions.map((t) => `${t.from} → ${t.to}`);
}

async function mailsTo(address: string) {
  return database.db
    .selectFrom("outbox")
    .select(["kind", "locale", "subject", "text_body"])
    .where("to_address", "=", address)
    .orderBy("id")
    .execute();
}

describe("npm run order", () => {
  it("ships a paid order: production first, then shipped, and one shipping mail in the order's language", async () => {
    const orderId = await placePaidOrder("de");
    const number = orderNumber(orderId);

    const shipped = await order("ship", `FH-${number}`);

    expect(shipped).toEqual({
      code: 0,
      stdout: `Bestelling ${number} verzonden (betaald → in productie → verzonden); verzendmail klaargezet voor jonas@example.de (Duits)\n`,
      stderr: "",
    });
    expect(await statusOf(orderId)).toBe("shipped");
    expect(await stepsOf(orderId)).toEqual([
      "awaiting_payment → paid",
      "paid → in_production",
      "in_production → shipped",
    ]);
    const mails = await mailsTo("jonas@example.de");
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      kind: "order-shipped",
      locale: "de",
      subject: `Ihre Bestellung ${number} ist unterwegs`,
    });
    expect(mails[0]?.text_body).toContain("1 × Exklusives Fotobuch (Hochformat, 21x30 cm)\n");
    expect(mails[0]?.text_body).toContain("Jonas\nHauptstraße 5\n10115 Berlin\nDeutschland\n");
  });

  it("changes nothing and sends no second mail when the order is shipped again", async () => {
    const orderId = await placePaidOrder("nl");
    const number = orderNumber(orderId);
    expect((await order("ship", number)).code).toBe(0);

    const again = await order("ship", number);

    expect(again).toEqual({
      code: 0,
      stdout: `Bestelling ${number} was al verzonden: niets veranderd, geen nieuwe mail\n`,
      stderr: "",
    });
    expect(await statusOf(orderId)).toBe("shipped");
    expect(await stepsOf(orderId)).toHaveLength(3);
    const mails = await database.db
      .selectFrom("outbox")
      .select(["kind", "locale", "subject"])
      .where("subject", "=", `Je bestelling ${number} is onderweg`)
      .execute();
    expect(mails).toEqual([
      { kind: "order-shipped", locale: "nl", subject: `Je bestelling ${number} is onderweg` },
    ]);
  });

  it("refuses to ship an order that awaits payment, and changes nothing", async () => {
    const orderId = await placeOrder("nl");
    const number = orderNumber(orderId);
    const mailsBefore = await mailsTo("anna@example.nl");

    const refused = await order("ship", number);

    expect(refused).toEqual({
      code: 1,
      stdout: "",
      stderr: `Bestelling ${number} wacht nog op betaling: niet verzonden\n`,
    });
    expect(await statusOf(orderId)).toBe("awaiting_payment");
    expect(await stepsOf(orderId)).toEqual([]);
    expect(await mailsTo("anna@example.nl")).toEqual(mailsBefore);
  });

  it("starts production on its own, and then ships from there in one step", async () => {
    const orderId = await placePaidOrder("nl");
    const number = orderNumber(orderId);

    expect(await order("produce", number)).toEqual({
      code: 0,
      stdout: `Bestelling ${number} is in productie (was: betaald)\n`,
      stderr: "",
    });
    expect(await statusOf(orderId)).toBe("in_production");

    const shipped = await order("ship", number);
    expect(shipped.stdout).toBe(
      `Bestelling ${number} verzonden (in productie → verzonden); verzendmail klaargezet voor anna@example.nl (Nederlands)\n`,
    );
    expect(await stepsOf(orderId)).toEqual([
      "awaiting_payment → paid",
      "paid → in_production",
      "in_production → shipped",
    ]);
  });

  it("shows the status and every transition with its time and payment", async () => {
    const orderId = await placePaidOrder("de");
    const number = orderNumber(orderId);
    const [placed] = await database.db
      .selectFrom("orders")
      .select("created_at")
      .where("id", "=", orderId)
      .execute();
    const [paid] = await orderLifecycleRepository(database.db).transitionsOf(orderId);

    expect(await order("show", number)).toEqual({
      code: 0,
      stdout: [
        `Bestelling ${number} (Duits): betaald`,
        `  ${placed?.created_at}  geplaatst`,
        `  ${paid?.at}  wacht op betaling → betaald (payment_paid, betaling tr_test_${orderId})`,
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("says so, with exit code 1, for an order number nobody has", async () => {
    const unknown = orderNumber(999_999);
    expect(await order("ship", unknown)).toEqual({
      code: 1,
      stdout: "",
      stderr: `Bestelling ${unknown} bestaat niet\n`,
    });
    expect((await order("show", unknown)).code).toBe(1);
  });

  it("says so, with exit code 1, for something that is no order number, or no command it knows", async () => {
    expect(await order("ship", "FH-12ab")).toEqual({
      code: 1,
      stdout: "",
      stderr: `"FH-12ab" is geen bestelnummer (zoals 100001 of FH-100001)\n`,
    });
    const wrongCommand = await order("cancel", "100001");
    expect(wrongCommand.code).toBe(1);
    expect(wrongCommand.stderr).toMatch(/^Gebruik: npm run order -- produce\|ship\|show <bestelnummer>/);
    expect((await order()).code).toBe(1);
  });
});
