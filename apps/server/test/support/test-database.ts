import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type DatabaseKind, type Db, migrateToLatest, openDatabase } from '../../src/db/database.ts';

/** Every repository and API test runs once per database kind. */
export const DATABASE_KINDS: DatabaseKind[] = ['sqlite', 'postgres'];

/** The maintenance database of the PostgreSQL server the tests create their databases on. */
export const TEST_PG_ADMIN_URL = process.env.PANEL_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  db: Db;
  kind: DatabaseKind;
  /** Connection string (PostgreSQL), or the file of a file-based SQLite database. */
  url?: string;
  destroy(): Promise<void>;
}

/**
 * A fresh, migrated database: SQLite in memory, or a new PostgreSQL database dropped afterwards.
 * PostgreSQL missing is an error, never a skip: the API suite must run on both.
 */
export async function createTestDatabase(
  kind: DatabaseKind,
  options: { sqliteFile?: string } = {},
): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    // In memory unless a daemon (Dovecot, Postfix) must open the same file.
    const { db } = openDatabase({ sqliteFile: options.sqliteFile ?? ':memory:' });
    await migrateToLatest(db);
    return { db, kind, url: options.sqliteFile, destroy: () => db.destroy() };
  }
  const name = `p247_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is needed for the API tests (${TEST_PG_ADMIN_URL}): ${(error as Error).message}. ` +
        'Start it or set PANEL_TEST_PG_URL.',
    );
  }
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_PG_ADMIN_URL);
  url.pathname = `/${name}`;
  const { db } = openDatabase({ url: url.toString() });
  await migrateToLatest(db);
  return {
    db,
    kind,
    url: url.toString(),
    async destroy() {
      await db.destroy();
      const cleanup = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
      await cleanup.connect();
      // The pool's end resolves before its sockets have closed; FORCE would then kill a backend
      // whose client is still ending, an unhandled 'error' in the test process. Let them go first
      // (for at most 2 s: a daemon still connected is cut off by FORCE as before).
      for (let tries = 0; tries < 100; tries += 1) {
        const { rows } = await cleanup.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
          [name],
        );
        if (rows[0]?.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
