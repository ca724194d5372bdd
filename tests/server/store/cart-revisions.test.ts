import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { cartRepository } from "../../../server/store/cart-repository.ts";
import { photoProjectRepository } from "../../../server/store/photo-project-repository.ts";
import { uploadRepository } from "../../../server/store/upload-repository.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";

const canvas = { productId: "canvas", orientation: "square", sizeId: "50x50" };
const book = { productId: "exclusive-photobook", orientation: "portrait", sizeId: "21x30" };
const address = {
  name: "Jan Jansen",
  street: "Kerkstraat 1",
  postcode: "1011 AB",
  city: "Amsterdam",
  country: "NL" as const,
  email: "jan@example.nl",
};
const photo = (projectId?: string) => ({
  ownerId: "owner-a",
  originalName: "een.jpg",
  format: "jpeg",
  width: 1200,
  height: 900,
  bytes: 5000,
  ...(projectId ? { projectId } : {}),
});

/**
 * The cart page is kept per cart revision (pages.ts), so every change the page shows must
 * raise it: these are the database's own triggers (migration 0007), whatever code changes it.
 */
describe.each(testDatabases())("a cart's revision on $name", (target) => {
  const open = databasePerTest(target);

  it("rises with every change to the cart's lines and address, and with nothing else", async () => {
    const { db } = await open();
    const carts = cartRepository(db);
    const cart = await carts.create();
    const other = await carts.create();
    expect(await carts.revision("no-such-cart-000000000")).toBeUndefined();

    const seen = [await carts.revision(cart)];
    const changed = async (what: string) => {
      const now = await carts.revision(cart);
      expect(now, what).toBeGreaterThan(seen[seen.length - 1] as number);
      seen.push(now);
    };
    await carts.add(cart, canvas, 1);
    await changed("a line added");
    await carts.add(cart, canvas, 2);
    await changed("the same option added again");
    await carts.setQuantity(cart, canvas, 5);
    await changed("a quantity changed");
    await carts.saveAddress(cart, address);
    await changed("the address saved");
    await carts.saveAddress(cart, { ...address, country: "DE", postcode: "10115" });
    await changed("the address changed");
    await carts.remove(cart, canvas);
    await changed("a line removed");

    const before = await carts.revision(cart);
    await carts.add(other, canvas, 1);
    await carts.saveAddress(other, address);
    await carts.lines(cart);
    await carts.itemCount(cart);
    expect(await carts.revision(cart)).toBe(before);
  });

  it("rises when a line's photo-book project gains or loses a photo", async () => {
    const { db } = await open();
    const carts = cartRepository(db);
    const projects = photoProjectRepository(db);
    const uploads = uploadRepository(db);
    const cart = await carts.create();
    const project = await projects.create("owner-a", book);
    await carts.add(cart, { ...book, projectId: project.id }, 1);

    let last = (await carts.revision(cart)) as number;
    const rises = async (what: string) => {
      const now = (await carts.revision(cart)) as number;
      expect(now, what).toBeGreaterThan(last);
      last = now;
    };
    const added = await uploads.add(photo(project.id));
    await rises("a photo added to the project");
    const loose = await uploads.add(photo());
    expect(await carts.revision(cart), "a photo outside any project").toBe(last);
    await uploads.attach("owner-a", project.id, [loose.id], 10);
    await rises("a photo attached to the project");
    await uploads.remove("owner-a", added.id);
    await rises("a photo removed from the project");
    // Photos taken off by any other way (a repair by hand, say) count as well.
    await sql`update uploads set project_id = null where project_id = ${project.id}`.execute(db);
    await rises("photos taken off the project");
  });

  it("leaves abandoned carts to be cleaned up as before", async () => {
    const { db } = await open();
    const carts = cartRepository(db);
    const cart = await carts.create();
    await carts.add(cart, canvas, 1);
    await carts.saveAddress(cart, address);
    await db.updateTable("carts").set({ updated_at: "2026-01-01T00:00:00.000Z" }).execute();
    expect(await carts.deleteAbandoned(new Date("2026-06-01T00:00:00Z"))).toBe(1);
    expect(await carts.revision(cart)).toBeUndefined();
  });
});
