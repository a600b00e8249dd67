import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type DatabaseKind, type Db, migrateToLatest, openDatabase } from '../../src/db/database.ts';
import { PgBossEngine } from '../../src/jobs/pg-boss-engine.ts';

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
  const template = await migratedTemplate();
  const admin = await adminClient();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  await admin.end();
  const url = databaseUrl(name);
  const { db } = openDatabase({ url });
  return {
    db,
    kind,
    url,
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

async function adminClient(): Promise<pg.Client> {
  const admin = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is needed for the API tests (${TEST_PG_ADMIN_URL}): ${(error as Error).message}. ` +
        'Start it or set PANEL_TEST_PG_URL.',
    );
  }
  return admin;
}

function databaseUrl(name: string): string {
  const url = new URL(TEST_PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

let template: Promise<string> | undefined;

/**
 * A database migrated once per test process, with the job engine's schema installed, that every
 * PostgreSQL test database of the process is copied from (CREATE DATABASE … TEMPLATE): a copy
 * takes a tenth of running every migration and pg-boss's installation again. Templates of test
 * processes that ended are dropped first.
 */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const admin = await adminClient();
    const { rows } = await admin.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'p247_template_%'",
    );
    for (const { datname } of rows) {
      const pid = Number(datname.split('_')[2]);
      if (pid !== process.pid && !processAlive(pid))
        await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
    const name = `p247_template_${process.pid}_${randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${name}`);
    const url = databaseUrl(name);
    const { db } = openDatabase({ url });
    await migrateToLatest(db);
    await db.destroy();
    const jobs = new PgBossEngine({ connectionString: url });
    await jobs.start({ workers: false });
    await jobs.stop();
    // A template must have no connection open while it is copied.
    await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name],
    );
    await admin.end();
    return name;
  })();
  return template;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
