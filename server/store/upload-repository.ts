import type { Kysely } from "kysely";
import { randomId } from "./random-id.ts";
import type { Schema } from "./schema.ts";

/** A shopper's uploaded photo as stored: what its content turned out to be, never what its name said. */
export interface Upload {
  id: string;
  ownerId: string;
  projectId: string | undefined;
  originalName: string;
  format: string;
  width: number;
  height: number;
  bytes: number;
  createdAt: string;
}

/** id: made by the caller (randomId) when its files are stored before the row; new otherwise. */
export type NewUpload = Omit<Upload, "id" | "createdAt" | "projectId"> & { id?: string; projectId?: string };

export interface UploadRepository {
  add(upload: NewUpload, at?: Date): Promise<Upload>;
  /**
   * Adds the upload only if the owner's photos then take at most `maxOwnerBytes` (a
   * subscriber's plan); undefined, and nothing stored, when they would take more. Two
   * uploads of one owner at once cannot both take the last room: the insert's trigger
   * holds the owner's shopper_revisions row (migration 0015) until the transaction ends,
   * so the second one's count waits for the first and includes it.
   */
  addWithin(upload: NewUpload, maxOwnerBytes: number, at?: Date): Promise<Upload | undefined>;
  /** One of this shopper's uploads; undefined for anyone else's. */
  get(ownerId: string, id: string): Promise<Upload | undefined>;
  /** Newest first. */
  listByOwner(ownerId: string): Promise<Upload[]>;
  /** In upload order: the order the pages of the book get. */
  listByProject(projectId: string): Promise<Upload[]>;
  countByOwner(ownerId: string): Promise<number>;
  /** What an owner's photos take, in bytes (a subscriber's storage). */
  bytesByOwner(ownerId: string): Promise<number>;
  countInProject(projectId: string): Promise<number>;
  /** Bytes of every original the shop keeps, everyone's: what the instance's storage limit counts. */
  totalBytes(): Promise<number>;
  /**
   * Puts this shopper's uploads that belong to no project yet into the project, at most
   * `room` of them; others' uploads and ones already in a project are left alone.
   * Answers the ids that were attached.
   */
  attach(ownerId: string, projectId: string, ids: readonly string[], room: number): Promise<string[]>;
  /**
   * Deletes this shopper's upload (the row; its files are the caller's), unless it is in
   * a project an order holds: production needs that photo. Answers whether it went.
   */
  remove(ownerId: string, id: string): Promise<boolean>;
}

type Row = Schema["uploads"];

function fromRow(row: Row): Upload {
  return {
    id: row.id,
    ownerId: row.owner_id,
    projectId: row.project_id ?? undefined,
    originalName: row.original_name,
    format: row.format,
    width: Number(row.width),
    height: Number(row.height),
    bytes: Number(row.bytes),
    createdAt: row.created_at,
  };
}

class OverOwnerRoom extends Error {}

function rowOf(upload: NewUpload, at: Date): Row {
  return {
    id: upload.id ?? randomId(),
    owner_id: upload.ownerId,
    project_id: upload.projectId ?? null,
    original_name: upload.originalName,
    format: upload.format,
    width: upload.width,
    height: upload.height,
    bytes: upload.bytes,
    created_at: at.toISOString(),
  };
}

export function uploadRepository(db: Kysely<Schema>): UploadRepository {
  const count = async (column: "owner_id" | "project_id", value: string) => {
    const row = await db
      .selectFrom("uploads")
      .select((eb) => eb.fn.countAll<string | number>().as("n"))
      .where(column, "=", value)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  };

  const ownerBytes = async (reader: Kysely<Schema>, ownerId: string) => {
    const row = await reader
      .selectFrom("uploads")
      .select((eb) => eb.fn.sum<string | number | null>("bytes").as("total"))
      .where("owner_id", "=", ownerId)
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  };

  return {
    async add(upload, at = new Date()) {
      const row = rowOf(upload, at);
      await db.insertInto("uploads").values(row).execute();
      return fromRow(row);
    },

    async addWithin(upload, maxOwnerBytes, at = new Date()) {
      const row = rowOf(upload, at);
      try {
        return await db.transaction().execute(async (trx) => {
          await trx.insertInto("uploads").values(row).execute();
          // Thrown to roll the insert back.
          if ((await ownerBytes(trx, upload.ownerId)) > maxOwnerBytes) throw new OverOwnerRoom();
          return fromRow(row);
        });
      } catch (err) {
        if (err instanceof OverOwnerRoom) return undefined;
        throw err;
      }
    },

    async get(ownerId, id) {
      const row = await db
        .selectFrom("uploads")
        .selectAll()
        .where("id", "=", id)
        .where("owner_id", "=", ownerId)
        .executeTakeFirst();
      return row ? fromRow(row) : undefined;
    },

    async listByOwner(ownerId) {
      const rows = await db
        .selectFrom("uploads")
        .selectAll()
        .where("owner_id", "=", ownerId)
        .orderBy("created_at", "desc")
        .orderBy("id")
        .execute();
      return rows.map(fromRow);
    },

    async listByProject(projectId) {
      const rows = await db
        .selectFrom("uploads")
        .selectAll()
        .where("project_id", "=", projectId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return rows.map(fromRow);
    },

    countByOwner: (ownerId) => count("owner_id", ownerId),
    countInProject: (projectId) => count("project_id", projectId),

    bytesByOwner: (ownerId) => ownerBytes(db, ownerId),

    async totalBytes() {
      const row = await db
        .selectFrom("uploads")
        .select((eb) => eb.fn.sum<string | number | null>("bytes").as("total"))
        .executeTakeFirst();
      return Number(row?.total ?? 0);
    },

    async remove(ownerId, id) {
      const result = await db
        .deleteFrom("uploads")
        .where("id", "=", id)
        .where("owner_id", "=", ownerId)
        .where((eb) =>
          eb.or([
            eb("project_id", "is", null),
            eb.not(
              eb.exists(
                eb
                  .selectFrom("order_lines")
                  .select("order_lines.order_id")
                  .whereRef("order_lines.project_id", "=", "uploads.project_id"),
              ),
            ),
          ]),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async attach(ownerId, projectId, ids, room) {
      const wanted = [...new Set(ids)];
      if (wanted.length === 0 || room <= 0) return [];
      return db.transaction().execute(async (trx) => {
        const free = new Set(
          (
            await trx
              .selectFrom("uploads")
              .select("id")
              .where("owner_id", "=", ownerId)
              .where("project_id", "is", null)
              .where("id", "in", wanted)
              .execute()
          ).map((r) => r.id),
        );
        // In the shopper's order of choosing, as many as fit.
        const attach = wanted.filter((id) => free.has(id)).slice(0, room);
        if (attach.length > 0) {
          await trx
            .updateTable("uploads")
            .set({ project_id: projectId })
            .where("id", "in", attach)
            .where("project_id", "is", null)
            .execute();
        }
        return attach;
      });
    },
  };
}
