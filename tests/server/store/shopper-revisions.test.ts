import { describe, expect, it } from "vitest";
import { photoProjectRepository } from "../../../server/store/photo-project-repository.ts";
import { uploadRepository } from "../../../server/store/upload-repository.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";
import { orderForBook } from "../../support/orders.ts";

const book = { productId: "exclusive-photobook", orientation: "portrait", sizeId: "21x30" };
const photo = (ownerId: string, projectId?: string) => ({
  ownerId,
  originalName: "een.jpg",
  format: "jpeg",
  width: 1200,
  height: 900,
  bytes: 5000,
  ...(projectId ? { projectId } : {}),
});

/**
 * The photo-book editor is kept per shopper revision (routes/editor.ts), so every change it
 * can show must raise it: the database's own triggers (migration 0015), whatever code
 * makes the change, on whichever instance.
 */
describe.each(testDatabases())("a shopper's revision on $name", (target) => {
  const open = databasePerTest(target);

  it("rises with every change to their photos and books, and with no other shopper's", async () => {
    const { db } = await open();
    const projects = photoProjectRepository(db);
    const uploads = uploadRepository(db);
    expect(await projects.shopperRevision("owner-a")).toBe(0);

    let last = 0;
    const rises = async (what: string) => {
      const now = await projects.shopperRevision("owner-a");
      expect(now, what).toBeGreaterThan(last);
      last = now;
    };
    const project = await projects.create("owner-a", book);
    await rises("a book started");
    const loose = await uploads.add(photo("owner-a"));
    await rises("a photo uploaded");
    await uploads.attach("owner-a", project.id, [loose.id], 10);
    await rises("a photo put in the book");
    await projects.touch(project.id);
    await rises("the book changed");
    await orderForBook(db, project.id, "key-1");
    await rises("the book ordered");
    const other = await uploads.add(photo("owner-a"));
    await rises("another photo");
    await uploads.remove("owner-a", other.id);
    await rises("that photo removed");

    // Moved to an account's shopper id at sign-in: both shoppers' pages change.
    const before = await projects.shopperRevision("owner-b");
    await db.updateTable("uploads").set({ owner_id: "owner-b" }).where("id", "=", loose.id).execute();
    await rises("a photo moved away");
    expect(await projects.shopperRevision("owner-b")).toBeGreaterThan(before);

    const theirs = await projects.create("owner-c", book);
    await uploads.add(photo("owner-c", theirs.id));
    await db.deleteFrom("photo_projects").where("id", "=", theirs.id).execute();
    expect(await projects.shopperRevision("owner-a"), "another shopper's changes").toBe(last);
  });
});
