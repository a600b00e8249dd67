import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
} from 'kysely';
import pg from 'pg';
import { MIGRATIONS } from './migrations/index.ts';
import { preparePooledStatements } from './prepared-statements.ts';
import type { Database } from './schema.ts';
import { sqliteLibrary } from './sqlite-library.ts';

export type Db = Kysely<Database>;
export type DatabaseKind = 'sqlite' | 'postgres';

// int8 (bigint) columns hold epoch seconds: far inside the safe integer range.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

export interface OpenedDatabase {
  db: Db;
  kind: DatabaseKind;
  /** Connection string for PostgreSQL (the realtime listener needs its own connection). */
  url?: string;
}

export function openDatabase(options: {
  url?: string;
  sqliteFile?: string;
  /** PostgreSQL: connections in the pool. */
  poolSize?: number;
  /** PostgreSQL: prepare each query shape once per connection (see prepared-statements.ts). */
  preparedStatements?: boolean;
}): OpenedDatabase {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 20 });
    if (options.preparedStatements ?? true) preparePooledStatements(pool);
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), kind: 'postgres', url: options.url };
  }
  const file = options.sqliteFile ?? ':memory:';
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const SQLite = sqliteLibrary();
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // 64 MB of page cache: a 10,000-resource permission list reads ~3 MB of rows; the default 2 MB
  // cache made it twice as slow.
  sqlite.pragma('cache_size = -65536');
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }), kind: 'sqlite' };
}

class StaticMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return MIGRATIONS;
  }
}

/** Runs every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  // Numbers are handed out ahead of time, so a migration may land after a higher one has run on a
  // database (0020 after 0021): it runs then instead of the migrator refusing the database.
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider(), allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error) throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message}`);
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

/**
 * The migrations this version has that the database has not run: a node agent, whose role may
 * not change the schema, starts only on a database the panel has brought to its version.
 */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider(), allowUnorderedMigrations: true });
  return (await migrator.getMigrations())
    .filter((migration) => !migration.executedAt)
    .map((migration) => migration.name);
}

/** Whether a database handle talks to PostgreSQL (else SQLite). */
export function isPostgresDb(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export function nowSeconds(clock: () => number = Date.now): number {
  return Math.floor(clock() / 1000);
}

/**
 * Runs `work` in a transaction: the caller's when `db` is already one (kysely does not nest
 * them), else a new one.
 */
export function atomically<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
