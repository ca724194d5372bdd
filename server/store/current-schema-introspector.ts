import {
  type DatabaseIntrospector,
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  type Dialect,
  type Kysely,
  sql,
  type TableMetadata,
} from "kysely";

interface ColumnRow {
  table: string;
  kind: string;
  schema: string;
  column: string;
  type: string;
  type_schema: string;
  not_null: boolean;
  has_default: boolean;
  auto_incrementing: boolean;
  comment: string | null;
}

/**
 * Kysely's PostgreSQL introspector, which its migrator asks whether its own tables exist,
 * reads every schema in the database and looks each one up by name on the way. A schema
 * another shop (or a test on another worker) drops at that moment makes the lookup fail with
 * "schema … does not exist", and this shop then fails to start. This one looks only at the
 * current schema, where the shop keeps its tables (migrate.ts), and by object ids alone.
 */
export function currentSchemaIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
  const getTables = async (options = { withInternalKyselyTables: false }) => {
    const { rows } = await sql<ColumnRow>`
      select c.relname as "table", c.relkind as kind, ns.nspname as schema,
        a.attname as "column", typ.typname as type, tns.nspname as type_schema,
        a.attnotnull as not_null, a.atthasdef as has_default,
        (a.attidentity <> '' or coalesce(pg_get_expr(d.adbin, d.adrelid), '') like 'nextval(%')
          as auto_incrementing,
        col_description(a.attrelid, a.attnum) as comment
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      join pg_catalog.pg_type typ on typ.oid = a.atttypid
      join pg_catalog.pg_namespace tns on tns.oid = typ.typnamespace
      left join pg_catalog.pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p')
      order by c.relname, a.attnum`.execute(db);
    const internal = new Set([DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE]);
    const tables = new Map<string, TableMetadata>();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && internal.has(row.table)) continue;
      let table = tables.get(row.table);
      if (!table) {
        table = { name: row.table, isView: row.kind === "v", schema: row.schema, columns: [] };
        tables.set(row.table, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        isAutoIncrementing: row.auto_incrementing,
        ...(row.comment === null ? {} : { comment: row.comment }),
      });
    }
    return [...tables.values()];
  };

  return {
    async getSchemas() {
      const { rows } = await sql<{ name: string }>`select current_schema() as name`.execute(db);
      return rows;
    },
    getTables,
    async getMetadata(options) {
      return { tables: await getTables(options) };
    },
  };
}

/** A dialect as given, whose introspector sees only the current schema. */
export function withCurrentSchemaIntrospection(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => dialect.createDriver(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => currentSchemaIntrospector(db),
  };
}
