import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/db/database.ts';
import { preparePooledStatements } from '../../src/db/prepared-statements.ts';
import type { Database } from '../../src/db/schema.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

/** PostgreSQL keeps one plan per query shape and connection (db/prepared-statements.ts). */
describe('prepared statements on PostgreSQL', () => {
  let database: TestDatabase;
  const opened: Db[] = [];
  const open = (preparedStatements: boolean) => {
    // One connection, so that every query below runs in the session it inspects.
    const { db } = openDatabase({ url: database.url as string, poolSize: 1, preparedStatements });
    opened.push(db);
    return db;
  };
  const prepared = async (db: Db) =>
    (await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(db)).rows.map(
      (row) => row.statement,
    );
  const byReference = (db: Db, reference: string) =>
    db.selectFrom('resources').select('id').where('reference', '=', reference).execute();

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    for (const db of opened) await db.destroy();
    await database?.destroy();
  });

  it('prepares a query shape once and reuses it for other values', async () => {
    const db = open(true);
    await byReference(db, 'a.test');
    await byReference(db, 'b.test');
    await byReference(db, 'c.test');
    const statements = (await prepared(db)).filter((text) => text.includes('"resources"'));
    expect(statements).toHaveLength(1);
  });

  it('names at most so many shapes per connection; the others run unnamed', async () => {
    const pool = new pg.Pool({ connectionString: database.url as string, max: 1 });
    preparePooledStatements(pool, 1);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    opened.push(db);
    await byReference(db, 'a.test');
    await db.selectFrom('accounts').select('id').where('domain_name', '=', 'a.test').execute();
    expect(await byReference(db, 'b.test')).toEqual([]);
    expect(await prepared(db)).toHaveLength(1);
  });

  it('leaves queries unnamed when turned off', async () => {
    const db = open(false);
    await byReference(db, 'a.test');
    expect(await prepared(db)).toEqual([]);
  });
});
