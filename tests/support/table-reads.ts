import { type KyselyPlugin, type RootOperationNode, sql } from "kysely";
import type { Database } from "../../server/store/database.ts";

/**
 * The tables a query node reads: every table it names in a select (writes are not reads),
 * less the aliases its column references use (`u.id` names the alias "u" as a table).
 */
function tablesReadBy(node: RootOperationNode, into: Set<string>): void {
  const raw = node.kind === "RawNode" && /^\s*(select|with)\b/i.test((node.sqlFragments ?? []).join(" "));
  if (node.kind !== "SelectQueryNode" && !raw) return;
  const named = new Set<string>();
  const aliases = new Set<string>();
  const walk = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (value === null || typeof value !== "object") return;
    const object = value as {
      kind?: string;
      table?: { identifier?: { name?: string } };
      alias?: { name?: string };
      sqlFragments?: string[];
    };
    if (object.kind === "TableNode" && object.table?.identifier?.name)
      named.add(object.table.identifier.name);
    if (object.kind === "AliasNode" && object.alias?.name) aliases.add(object.alias.name);
    if (object.kind === "RawNode" && object.sqlFragments) {
      for (const match of object.sqlFragments.join(" ").matchAll(/\b(?:from|join)\s+"?(\w+)"?/gi))
        named.add(match[1] as string);
    }
    for (const child of Object.values(object)) walk(child);
  };
  walk(node);
  for (const table of named) if (!aliases.has(table)) into.add(table);
}

/**
 * The shop's database with every read recorded by table: through Kysely (its plugin sees
 * each query as it is built, when it runs) and through the reads of every page view, which
 * run queries compiled once. `reads` is what was read since it was last cleared.
 */
export function recordingTableReads(database: Database): {
  database: Database;
  reads: Set<string>;
  /** How many queries read each table since it was last cleared. */
  queriesOf: Map<string, number>;
} {
  const reads = new Set<string>();
  const queriesOf = new Map<string, number>();
  const record = (node: RootOperationNode) => {
    const tables = new Set<string>();
    tablesReadBy(node, tables);
    for (const table of tables) {
      reads.add(table);
      queriesOf.set(table, (queriesOf.get(table) ?? 0) + 1);
    }
  };
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      record(args.node);
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return {
    reads,
    queriesOf,
    database: {
      ...database,
      db: database.db.withPlugin(plugin),
      readCommitted: (query) => {
        record(query.query);
        return database.readCommitted(query);
      },
    },
  };
}

/**
 * Which revision each table raises, read off the database's own triggers (migrations 0007,
 * 0015, 0016): a trigger on a table that updates a revision covers that table's rows.
 */
export async function tablesEachRevisionCovers(database: Database): Promise<Record<string, Set<string>>> {
  const triggers =
    database.dialect === "sqlite"
      ? (
          await sql<{ tableName: string; body: string }>`
            select tbl_name as "tableName", sql as body from sqlite_master where type = 'trigger'`.execute(
            database.db,
          )
        ).rows
      : (
          await sql<{ tableName: string; body: string }>`
            select event_object_table as "tableName", action_statement || ' ' || p.prosrc as body
            from information_schema.triggers t
            join pg_proc p on p.proname = substring(t.action_statement from 'execute function (\w+)\(')
            where t.trigger_schema = current_schema()`.execute(database.db)
        ).rows;
  const covers: Record<string, Set<string>> = {
    cart: new Set(["carts"]),
    shopper: new Set(["shopper_revisions"]),
    account: new Set(["account_revisions"]),
  };
  for (const { tableName, body } of triggers) {
    if (/update carts set revision/i.test(body)) covers.cart?.add(tableName);
    if (/shopper_revisions/i.test(body)) covers.shopper?.add(tableName);
    if (/account_revisions/i.test(body)) covers.account?.add(tableName);
  }
  return covers;
}
