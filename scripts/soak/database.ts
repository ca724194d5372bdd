// A PostgreSQL schema of the soak's own: made before the instances start, read afterwards to
// find what the shop confirmed, and dropped at the end.
import { randomBytes } from "node:crypto";
import pg from "pg";

export interface SoakSchema {
  name: string;
  /** DATABASE_URL for the instances: the server's URL with this schema as its search path. */
  url: string;
  /** Which of these order ids have a row. */
  ordersFound(ids: number[]): Promise<Set<number>>;
  /** Which of these e-mail addresses have a contact message. */
  messagesFound(emails: string[]): Promise<Set<string>>;
  /** Which of these upload ids have a row. */
  uploadsFound(ids: string[]): Promise<Set<string>>;
  drop(): Promise<void>;
}

export async function createSchema(serverUrl: string): Promise<SoakSchema> {
  const name = `soak_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`create schema ${name}`);
  const url = new URL(serverUrl);
  // pg reads `options` from the URL and hands it to the server at connect.
  url.searchParams.set("options", `-c search_path=${name}`);
  const column = async <T>(query: string, values: unknown[]): Promise<Set<T>> =>
    values.length === 0
      ? new Set()
      : new Set((await client.query(query, [values])).rows.map((row) => row.value as T));
  return {
    name,
    url: url.toString(),
    ordersFound: (ids) => column(`select id as value from ${name}.orders where id = any($1)`, ids),
    messagesFound: (emails) =>
      column(`select email as value from ${name}.contact_messages where email = any($1)`, emails),
    uploadsFound: (ids) => column(`select id as value from ${name}.uploads where id = any($1)`, ids),
    async drop() {
      await client.query(`drop schema ${name} cascade`);
      await client.end();
    },
  };
}
