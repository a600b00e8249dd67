import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';

const PG_ADMIN_URL = process.env.PANEL_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A PostgreSQL database of the describe block's own, for a panel server on PostgreSQL: made
 * before the block's tests and dropped after them. Call it before the suite's hooks are
 * registered, so that it exists before the server starts and is dropped after it stops (vitest
 * runs after-hooks last-registered first). Answers the database's URL.
 */
export function ownPostgresDatabase(): string {
  const database = `p247_e2e_${randomBytes(4).toString('hex')}`;
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${database}`;
  beforeAll(() => admin(`CREATE DATABASE ${database}`));
  afterAll(() => admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  return url.toString();
}
