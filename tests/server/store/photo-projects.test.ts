import { describe, expect, it } from "vitest";
import { cartRepository } from "../../../server/store/cart-repository.ts";
import { photoProjectRepository } from "../../../server/store/photo-project-repository.ts";
import { uploadRepository } from "../../../server/store/upload-repository.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";
import { orderForBook } from "../../support/orders.ts";

const book = { productId: "exclusive-photobook", orientation: "portrait", sizeId: "21x30" };
const photo = (ownerId: string, name: string) => ({
  ownerId,
  originalName: name,
  format: "jpeg",
  width: 1200,
  height: 900,
  bytes: 5000,
});

describe.each(testDatabases())("photo projects and uploads on $name", (target) => {
  const open = databasePerTest(target);

  it("keeps a project with its photos in upload order, for its owner only", async () => {
    const { db } = await open();
    const projects = photoProjectRepository(db);
    const uploads = uploadRepository(db);
    const project = await projects.create("owner-a", book);
    await uploads.add(
      { ...photo("owner-a", "een.jpg"), projectId: project.id },
      new Date("2026-01-01T10:00:00Z"),
    );
    await uploads.add(
      { ...photo("owner-a", "twee.jpg"), projectId: project.id },
      new Date("2026-01-01T10:01:00Z"),
    );
    expect((await uploads.listByProject(project.id)).map((u) => u.originalName)).toEqual([
      "een.jpg",
      "twee.jpg",
    ]);
    expect((await projects.get("owner-a", project.id))?.photoCount).toBe(2);
    expect(await projects.get("owner-b", project.id)).toBeUndefined();
    expect((await uploads.listByOwner("owner-a")).map((u) => u.originalName)).toEqual([
      "twee.jpg",
      "een.jpg",
    ]);
    expect(await uploads.listByOwner("owner-b")).toEqual([]);
  });

  it("attaches only the owner's free uploads, and no more than the room left", async () => {
    const { db } = await open();
    const projects = photoProjectRepository(db);
    const uploads = uploadRepository(db);
    const mine = await projects.create("owner-a", book);
    const other = await projects.create("owner-a", book);
    const a = await uploads.add(photo("owner-a", "a.jpg"));
    const b = await uploads.add(photo("owner-a", "b.jpg"));
    const c = await uploads.add(photo("owner-a", "c.jpg"));
    const theirs = await uploads.add(photo("owner-b", "theirs.jpg"));
    const taken = await uploads.add({ ...photo("owner-a", "taken.jpg"), projectId: other.id });
    const attached = await uploads.attach("owner-a", mine.id, [b.id, theirs.id, taken.id, a.id, c.id], 2);
    expect(attached).toEqual([b.id, a.id]);
    expect(await uploads.countInProject(mine.id)).toBe(2);
    expect((await uploads.get("owner-a", c.id))?.projectId).toBeUndefined();
    expect((await uploads.get("owner-b", theirs.id))?.projectId).toBeUndefined();
    expect((await uploads.get("owner-a", taken.id))?.projectId).toBe(other.id);
  });

  it("removes an upload for its owner only, and never one in a book that was ordered", async () => {
    const { db } = await open();
    const projects = photoProjectRepository(db);
    const uploads = uploadRepository(db);
    const draft = await projects.create("owner-a", book);
    const orderedBook = await projects.create("owner-a", book);
    const loose = await uploads.add(photo("owner-a", "los.jpg"));
    const inDraft = await uploads.add({ ...photo("owner-a", "concept.jpg"), projectId: draft.id });
    const inOrdered = await uploads.add({ ...photo("owner-a", "besteld.jpg"), projectId: orderedBook.id });
    await orderForBook(db, orderedBook.id, "key-1");

    expect(await projects.ordered([draft.id, orderedBook.id, "unknown"])).toEqual(new Set([orderedBook.id]));
    expect(await projects.ordered([])).toEqual(new Set());
    expect(await uploads.remove("owner-b", loose.id)).toBe(false);
    expect(await uploads.remove("owner-a", inOrdered.id)).toBe(false);
    expect(await uploads.remove("owner-a", loose.id)).toBe(true);
    expect(await uploads.remove("owner-a", inDraft.id)).toBe(true);
    expect(await uploads.remove("owner-a", loose.id)).toBe(false);
    expect((await uploads.listByOwner("owner-a")).map((u) => u.originalName)).toEqual(["besteld.jpg"]);
    expect((await projects.get("owner-a", draft.id))?.photoCount).toBe(0);
  });

  it("counts a shopper's projects, for the cap on how many one browser keeps", async () => {
    const { db } = await open();
    const projects = photoProjectRepository(db);
    await projects.create("owner-a", book);
    await projects.create("owner-a", book);
    await projects.create("owner-b", book);
    expect(await projects.countByOwner("owner-a")).toBe(2);
    expect(await projects.countByOwner("owner-c")).toBe(0);
  });

  it("gives a cart line with a project a line of its own, raising its quantity on a second add", async () => {
    const { db } = await open();
    const carts = cartRepository(db);
    const projects = photoProjectRepository(db);
    const cart = await carts.create();
    const first = await projects.create("owner-a", book);
    const second = await projects.create("owner-a", book);
    await carts.add(cart, book, 1);
    await carts.add(cart, { ...book, projectId: first.id }, 1);
    await carts.add(cart, { ...book, projectId: second.id }, 1);
    await carts.add(cart, { ...book, projectId: first.id }, 2);
    await carts.add(cart, book, 1);
    const lines = await carts.lines(cart);
    expect(lines).toHaveLength(3);
    expect(lines.find((l) => !l.projectId)?.quantity).toBe(2);
    expect(lines.find((l) => l.projectId === first.id)?.quantity).toBe(3);
    expect(lines.find((l) => l.projectId === second.id)?.quantity).toBe(1);
    expect(await carts.itemCount(cart)).toBe(6);
    const summaries = await projects.summaries([first.id, second.id, first.id]);
    expect([...summaries.keys()].sort()).toEqual([first.id, second.id].sort());
  });

  it("changes or removes a project's line without touching the plain line in the same format", async () => {
    const { db } = await open();
    const carts = cartRepository(db);
    const project = await photoProjectRepository(db).create("owner-a", book);
    const cart = await carts.create();
    await carts.add(cart, book, 2);
    await carts.add(cart, { ...book, projectId: project.id }, 1);
    expect(await carts.setQuantity(cart, { ...book, projectId: project.id }, 5)).toBe(true);
    expect(await carts.lines(cart)).toEqual([
      { ...book, quantity: 2 },
      { ...book, quantity: 5, projectId: project.id },
    ]);
    expect(await carts.remove(cart, book)).toBe(true);
    expect(await carts.lines(cart)).toEqual([{ ...book, quantity: 5, projectId: project.id }]);
    expect(await carts.remove(cart, { ...book, projectId: "someone-elses-project" })).toBe(false);
    expect(await carts.remove(cart, { ...book, projectId: project.id })).toBe(true);
    expect(await carts.lines(cart)).toEqual([]);
  });

  it("refuses to take a project's line over the limit, and keeps what it had", async () => {
    const { db } = await open();
    const carts = cartRepository(db);
    const project = await photoProjectRepository(db).create("owner-a", book);
    const cart = await carts.create();
    expect(await carts.add(cart, { ...book, projectId: project.id }, 98, 99)).toBe(true);
    expect(await carts.add(cart, { ...book, projectId: project.id }, 2, 99)).toBe(false);
    expect(await carts.lines(cart)).toEqual([{ ...book, quantity: 98, projectId: project.id }]);
  });

  it("loses nothing when the same project is added many times at once", async () => {
    const { db } = await open();
    const carts = cartRepository(db);
    const project = await photoProjectRepository(db).create("owner-a", book);
    const cart = await carts.create();
    await Promise.all(
      Array.from({ length: 20 }, () => carts.add(cart, { ...book, projectId: project.id }, 1)),
    );
    expect(await carts.lines(cart)).toEqual([{ ...book, quantity: 20, projectId: project.id }]);
  });
});
