import type { Kysely } from "kysely";
import { type PageViewReads, readsThrough } from "./database.ts";
import { randomId } from "./random-id.ts";
import type { Schema } from "./schema.ts";

/** A photo-book project: a product in one format, with the shopper's photos as its pages. */
export interface PhotoProject {
  id: string;
  ownerId: string;
  productId: string;
  orientation: string;
  sizeId: string;
  createdAt: string;
  updatedAt: string;
  photoCount: number;
}

export interface ProjectFormat {
  productId: string;
  orientation: string;
  sizeId: string;
}

export interface PhotoProjectRepository {
  create(ownerId: string, format: ProjectFormat, at?: Date): Promise<PhotoProject>;
  /** The project, if it is this shopper's: a project id alone never shows anyone's photos. */
  get(ownerId: string, id: string): Promise<PhotoProject | undefined>;
  /** Several projects at once, whoever owns them (the cart shows its lines' projects). */
  summaries(ids: readonly string[]): Promise<Map<string, PhotoProject>>;
  touch(id: string, at?: Date): Promise<void>;
  /** How many projects this shopper has (for the cap in upload-limits.ts). */
  countByOwner(ownerId: string): Promise<number>;
  /** This shopper's projects, the one changed last first (the account's photos page). */
  listByOwner(ownerId: string): Promise<PhotoProject[]>;
  /** Which of these projects an order holds: their photos are needed for production and stay. */
  ordered(ids: readonly string[]): Promise<Set<string>>;
  /**
   * A number that changes whenever this shopper's photos, projects or ordered books change
   * (migration 0015): 0 for a shopper who never had any.
   */
  shopperRevision(ownerId: string): Promise<number>;
}

export function photoProjectRepository(
  db: Kysely<Schema>,
  /** Where the reads of every page view go (database.ts); by default through Kysely. */
  reads: PageViewReads = readsThrough(db),
): PhotoProjectRepository {
  // Compiled with a stand-in id; each call runs it with its own.
  const shopperRevisionQuery = db
    .selectFrom("shopper_revisions")
    .select("revision")
    .where("owner_id", "=", "")
    .compile();
  const withCount = () =>
    db
      .selectFrom("photo_projects as p")
      .selectAll("p")
      .select((eb) =>
        eb
          .selectFrom("uploads as u")
          .select((e) => e.fn.countAll<string | number>().as("n"))
          .whereRef("u.project_id", "=", "p.id")
          .as("photo_count"),
      );

  const fromRow = (row: Schema["photo_projects"] & { photo_count: string | number | null }) => ({
    id: row.id,
    ownerId: row.owner_id,
    productId: row.product_id,
    orientation: row.orientation,
    sizeId: row.size_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    photoCount: Number(row.photo_count ?? 0),
  });

  return {
    async create(ownerId, format, at = new Date()) {
      const iso = at.toISOString();
      const row = {
        id: randomId(),
        owner_id: ownerId,
        product_id: format.productId,
        orientation: format.orientation,
        size_id: format.sizeId,
        created_at: iso,
        updated_at: iso,
      };
      await db.insertInto("photo_projects").values(row).execute();
      return fromRow({ ...row, photo_count: 0 });
    },

    async get(ownerId, id) {
      const row = await withCount()
        .where("p.id", "=", id)
        .where("p.owner_id", "=", ownerId)
        .executeTakeFirst();
      return row ? fromRow(row) : undefined;
    },

    async summaries(ids) {
      const unique = [...new Set(ids)];
      if (unique.length === 0) return new Map();
      const rows = await withCount().where("p.id", "in", unique).execute();
      return new Map(rows.map((row) => [row.id, fromRow(row)]));
    },

    async countByOwner(ownerId) {
      const row = await db
        .selectFrom("photo_projects")
        .select((eb) => eb.fn.countAll<string | number>().as("n"))
        .where("owner_id", "=", ownerId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    async listByOwner(ownerId) {
      const rows = await withCount()
        .where("p.owner_id", "=", ownerId)
        .orderBy("p.updated_at", "desc")
        .execute();
      return rows.map(fromRow);
    },

    async ordered(ids) {
      const unique = [...new Set(ids)];
      if (unique.length === 0) return new Set();
      const rows = await db
        .selectFrom("order_lines")
        .select("project_id")
        .distinct()
        .where("project_id", "in", unique)
        .execute();
      return new Set(rows.flatMap((r) => (r.project_id ? [r.project_id] : [])));
    },

    async shopperRevision(ownerId) {
      const [row] = await reads.readCommitted<{ revision: number }>({
        ...shopperRevisionQuery,
        parameters: [ownerId],
      });
      return Number(row?.revision ?? 0);
    },

    async touch(id, at = new Date()) {
      await db
        .updateTable("photo_projects")
        .set({ updated_at: at.toISOString() })
        .where("id", "=", id)
        .execute();
    },
  };
}
