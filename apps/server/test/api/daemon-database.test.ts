import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_PG_ADMIN_URL } from '../support/test-database.ts';

const run = promisify(execFile);
const SCRIPT = path.resolve(import.meta.dirname, '../../../../deploy/postgresql/daemon-database.sql');
/** The schemas Debian's packages ship, as the guide names them (the packages are in install-system-deps.sh). */
const SCHEMAS = {
  powerdns: { file: '/usr/share/pdns-backend-pgsql/schema/schema.pgsql.sql', probe: 'domains' },
  roundcube: { file: '/usr/share/roundcube/SQL/postgres.initial.sql', probe: 'users' },
};

/** deploy/postgresql/daemon-database.sql with psql, as the guide runs it; resolves with stderr. */
async function script(variables: Record<string, string>): Promise<{ code: number; stderr: string }> {
  const args = ['-X', '-q', '-d', TEST_PG_ADMIN_URL, '-f', SCRIPT];
  for (const [name, value] of Object.entries(variables)) args.push('-v', `${name}=${value}`);
  try {
    return { code: 0, stderr: (await run('psql', args)).stderr };
  } catch (error) {
    const failure = error as { code: number; stderr: string };
    return { code: failure.code, stderr: failure.stderr };
  }
}

async function query<Row extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

const made: string[] = [];
afterAll(async () => {
  for (const name of made) {
    await query(TEST_PG_ADMIN_URL, `DROP DATABASE IF EXISTS ${name}`);
    await query(TEST_PG_ADMIN_URL, `DROP ROLE IF EXISTS ${name}`);
  }
});

describe('a daemon’s own database (deploy/postgresql/daemon-database.sql)', () => {
  for (const [daemon, schema] of Object.entries(SCHEMAS)) {
    it(`makes ${daemon}'s role, database and schema once, owned by the role`, async () => {
      if (!existsSync(schema.file)) throw new Error(`${schema.file} is missing: run scripts/install-system-deps.sh`);
      const name = `p247_test_${daemon}_${randomBytes(3).toString('hex')}`;
      made.push(name);
      const values = { name, password: 'first', schema: schema.file, probe: schema.probe };
      expect(await script(values)).toMatchObject({ code: 0 });
      const stored = `SELECT rolpassword FROM pg_authid WHERE rolname = $1`;
      const before = await query(TEST_PG_ADMIN_URL, stored, [name]);

      // again, with another password: nothing changes, and it says why the password did not
      const again = await script({ ...values, password: 'second' });
      expect(again.code).toBe(0);
      expect(again.stderr).toContain(`${name} exists: its password is unchanged`);
      expect(await query(TEST_PG_ADMIN_URL, stored, [name])).toEqual(before);

      const url = new URL(TEST_PG_ADMIN_URL);
      url.pathname = `/${name}`;
      const owners = await query<{ tableowner: string }>(
        url.toString(),
        `SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'`,
      );
      expect(owners).toEqual([{ tableowner: name }]);
      const database = await query<{ owner: string }>(
        TEST_PG_ADMIN_URL,
        'SELECT pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = $1',
        [name],
      );
      expect(database).toEqual([{ owner: name }]);

      // an explicit password change is one
      expect(await script({ ...values, password: 'third', set_passwords: 'on' })).toMatchObject({ code: 0 });
      expect(await query(TEST_PG_ADMIN_URL, stored, [name])).not.toEqual(before);
    });
  }

  it('refuses a name that is not a plain identifier', async () => {
    const refused = await script({ name: 'x; DROP', password: 'p', schema: '/dev/null', probe: 'domains' });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('name must be lower-case letters');
  });
});
