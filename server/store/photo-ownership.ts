import type { Kysely } from "kysely";
import type { Schema } from "./schema.ts";

/**
 * Whose photos and photo books are: the two ways a guest's become an account's (ADR 0094),
 * each run in the caller's transaction. Nothing that carries an account's owner id ever
 * moves: an account's photos are reached only through its sessions (ADR 0089). The
 * shopper revisions' triggers (migration 0015) are raised by each move for both owner ids,
 * so a page kept for the guest's id is not sent again once its photos are gone from it.
 */

/** The owner ids accounts carry: photos under one of them never move. */
const accountOwners = (trx: Kysely<Schema>) => trx.selectFrom("accounts").select("accounts.owner_id");

/**
 * Everything made under a sign-up's own shopper id (minted when the sign-up started, so
 * nothing made before it is among them) goes to the account the sign-up made or joined.
 * Answers how many photos moved.
 */
export async function moveSignupPhotos(trx: Kysely<Schema>, from: string, to: string): Promise<number> {
  if (from === to) return 0;
  const held = await trx.selectFrom("accounts").select("id").where("owner_id", "=", from).executeTakeFirst();
  if (held) return 0;
  await trx.updateTable("photo_projects").set({ owner_id: to }).where("owner_id", "=", from).execute();
  const moved = await trx
    .updateTable("uploads")
    .set({ owner_id: to })
    .where("owner_id", "=", from)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows);
}

/**
 * The photo books that cart lines order, with their photos, go to the account that took
 * the lines: a line whose book stayed out of reach could not be opened, changed or ordered
 * with its photos. Moved, not copied: the line, and any order placed from it, keep naming
 * the same project, and its photos' files stay where they are. A book that is an account's
 * stays that account's. Answers the ids of the books that moved.
 */
export async function moveLineProjects(
  trx: Kysely<Schema>,
  projectIds: readonly string[],
  to: string,
): Promise<string[]> {
  const wanted = [...new Set(projectIds)];
  if (wanted.length === 0) return [];
  const projects = await trx
    .selectFrom("photo_projects")
    .select(["id", "owner_id"])
    .where("id", "in", wanted)
    .where("owner_id", "<>", to)
    .where("owner_id", "not in", accountOwners(trx))
    .execute();
  for (const project of projects) {
    // A book's pages are its owner's photos (uploads.attach): another owner's never come along.
    await trx
      .updateTable("uploads")
      .set({ owner_id: to })
      .where("project_id", "=", project.id)
      .where("owner_id", "=", project.owner_id)
      .execute();
    await trx.updateTable("photo_projects").set({ owner_id: to }).where("id", "=", project.id).execute();
  }
  return projects.map((p) => p.id);
}
