import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { HostedDatabase } from '@panel247/contract/databases';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, requireBinary } from '../../../../scripts/daemons/daemon-harness.ts';
import type { DatabaseDrift } from '../../src/drivers/databases/databases.driver.ts';
import { clientOptionFile, MariaDbDriver, parseAdminUrl } from '../../src/drivers/databases/mariadb.driver.ts';
import { BrandService } from '../../src/modules/brand/brand.service.ts';
import { createDatabasesService } from '../../src/modules/databases/create-databases-service.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';
import {
  adminOptions,
  dropEverythingWithPrefix,
  mariadbReachable,
  randomNamePrefix,
  TEST_MARIADB_URL,
} from '../support/test-mariadb.ts';

const run = promisify(execFile);
const reachable = await mariadbReachable();

type One = { ddbb: HostedDatabase };
type List = { ddbb: HostedDatabase[]; limit: number };

/** Logs in over TCP from 127.0.0.1 as a hosted database's user, like a site or phpMyAdmin would. */
async function connectAs(user: string, password: string, database?: string) {
  const admin = adminOptions();
  return mysql.createConnection({
    host: '127.0.0.1',
    port: admin.port,
    user,
    password,
    ...(database ? { database } : {}),
    connectTimeout: 5000,
  });
}

async function canLogin(user: string, password: string): Promise<boolean> {
  try {
    const connection = await connectAs(user, password);
    await connection.end();
    return true;
  } catch (error) {
    // 1698: refused with no entry for the host at all (the user's 127.0.0.1 entry is gone)
    if ([1045, 1698].includes((error as { errno?: number }).errno ?? 0)) return false;
    throw error;
  }
}

/** The MariaDB client, fed on standard input, with the admin login in an option file like the dump's. */
function mariadbClient(database: string, input: string): Promise<{ code: number | null; stderr: string }> {
  const client = requireBinary('mariadb', 'mariadb-client');
  const dir = mkdtempSync(path.join(tmpdir(), 'p247-restore-'));
  const options = path.join(dir, 'client.cnf');
  writeFileSync(options, clientOptionFile(parseAdminUrl(TEST_MARIADB_URL)), { mode: 0o600 });
  return new Promise((resolve, reject) => {
    const child = spawn(client, [`--defaults-file=${options}`, database], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      rmSync(dir, { recursive: true, force: true });
      resolve({ code, stderr });
    });
    child.stdin.end(input);
  });
}

describe.skipIf(!reachable).each(DATABASE_KINDS)('databases on a real MariaDB (panel on %s)', (kind) => {
  const prefix = randomNamePrefix();
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let id: number;
  let root: mysql.Connection;
  const domain = `maria-${kind}.test`;
  const base = `${prefix}maria${kind}test`;

  const hostsOf = async (user: string) => {
    const [rows] = await root.query<mysql.RowDataPacket[]>(
      'SELECT Host AS host FROM mysql.user WHERE User = ? ORDER BY Host',
      [user],
    );
    return rows.map((row) => row.host as string);
  };
  const databaseExists = async (name: string) => {
    const [rows] = await root.query<mysql.RowDataPacket[]>(
      'SELECT 1 FROM information_schema.schemata WHERE schema_name = ?',
      [name],
    );
    return rows.length === 1;
  };
  const create = (password: string) => t.call<One>('POST', `service/${id}/ddbb/create/`, { password }, { cookie });
  const shown = async (did: number) =>
    (await t.call<One>('GET', `service/${id}/ddbb/${did}/`, {}, { cookie })).body.data.ddbb;

  beforeAll(async () => {
    root = await mysql.createConnection(adminOptions());
    t = await buildTestApp(kind, {
      config: {
        'databases.driver': 'mariadb',
        'databases.url': TEST_MARIADB_URL,
        'databases.namePrefix': prefix,
        'databases.maxPerService': 10,
      },
    });
    account = await buildAccount(t.database.db, { domainName: domain, resources: { [domain]: { hasService: true } } });
    id = account.resources[domain] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(async () => {
    try {
      await t?.close();
      await root?.end();
    } finally {
      await dropEverythingWithPrefix(prefix);
    }
  });

  it('creates a database whose shown password logs its user in, for that database only', async () => {
    const password = `it's "quoted" \\ back\\slash \`tick\` ; 100%`;
    const { body } = await create(password);
    expect(body.system.errors).toEqual([]);
    const database = body.data.ddbb;
    expect(database.bbdd).toBe(`${base}_1`);
    expect(await databaseExists(database.bbdd)).toBe(true);
    expect(await hostsOf(database.user)).toEqual(['127.0.0.1', 'localhost']);

    const password2 = (await shown(database.id)).password;
    expect(password2).toBe(password);
    const connection = await connectAs(database.user, password2, database.bbdd);
    try {
      const [[who]] = await connection.query<mysql.RowDataPacket[]>('SELECT DATABASE() AS db, CURRENT_USER() AS me');
      expect(who).toEqual({ db: database.bbdd, me: `${database.user}@127.0.0.1` });
      const [[charset]] = await connection.query<mysql.RowDataPacket[]>(
        'SELECT @@character_set_database AS cs, @@collation_database AS co',
      );
      expect(charset).toEqual({ cs: 'utf8mb4', co: 'utf8mb4_unicode_ci' });
      await connection.query('CREATE TABLE notes (id INT PRIMARY KEY, body TEXT)');
      // the grant's _ is escaped: it names this database only, not every one matching it as a pattern
      await expect(connection.query('CREATE DATABASE `other`')).rejects.toMatchObject({ errno: 1044 });
      await expect(connection.query('SELECT * FROM mysql.user')).rejects.toMatchObject({ errno: 1142 });
    } finally {
      await connection.end();
    }
    expect(await canLogin(database.user, 'wrong password')).toBe(false);
  });

  it('adds and removes the user’s access from anywhere with the same password', async () => {
    const list = await t.call<List>('GET', `service/${id}/ddbb/list/`, {}, { cookie });
    const database = list.body.data.ddbb[0] as HostedDatabase;
    const on = await t.call<One>('POST', `service/${id}/ddbb/${database.id}/toggle/externalaccess/`, {}, { cookie });
    expect(on.body.data.ddbb.externalAccess).toBe(true);
    expect(await hostsOf(database.user)).toEqual(['%', '127.0.0.1', 'localhost']);
    const [hashes] = await root.query<mysql.RowDataPacket[]>(
      'SELECT DISTINCT authentication_string AS hash FROM mysql.user WHERE User = ?',
      [database.user],
    );
    expect(hashes).toHaveLength(1);
    const [grants] = await root.query<mysql.RowDataPacket[]>('SHOW GRANTS FOR ?@?', [database.user, '%']);
    expect(JSON.stringify(grants)).toContain(`\`${database.bbdd.replaceAll('_', '\\\\_')}\`.*`);
    const off = await t.call<One>('GET', `service/${id}/ddbb/${database.id}/toggle/externalaccess/`, {}, { cookie });
    expect(off.body.data.ddbb.externalAccess).toBe(false);
    expect(await hostsOf(database.user)).toEqual(['127.0.0.1', 'localhost']);
  });

  it('changes the password on every host entry: the old one is refused, the new one works', async () => {
    const list = await t.call<List>('GET', `service/${id}/ddbb/list/`, {}, { cookie });
    const database = list.body.data.ddbb[0] as HostedDatabase;
    const old = (await shown(database.id)).password;
    await t.call('POST', `service/${id}/ddbb/${database.id}/toggle/externalaccess/`, {}, { cookie });
    const next = `new 'one' \\ "two"`;
    const changed = await t.call<One>(
      'POST',
      `service/${id}/ddbb/${database.id}/changepassword/`,
      { password: next },
      { cookie },
    );
    expect(changed.body.system.errors).toEqual([]);
    expect(await canLogin(database.user, old)).toBe(false);
    expect(await canLogin(database.user, next)).toBe(true);
    const [rows] = await root.query<mysql.RowDataPacket[]>(
      'SELECT Host AS host, authentication_string = PASSWORD(?) AS matches FROM mysql.user WHERE User = ? ORDER BY Host',
      [next, database.user],
    );
    expect(rows.map((row) => [row.host, Number(row.matches)])).toEqual([
      ['%', 1],
      ['127.0.0.1', 1],
      ['localhost', 1],
    ]);
    expect((await shown(database.id)).password).toBe(next);
    await t.call('POST', `service/${id}/ddbb/${database.id}/toggle/externalaccess/`, {}, { cookie });
  });

  it('reports usage that grows with the rows', async () => {
    const list = await t.call<List>('GET', `service/${id}/ddbb/list/`, {}, { cookie });
    const database = list.body.data.ddbb[0] as HostedDatabase;
    const before = database.size;
    expect(before).toBeGreaterThan(0);
    const connection = await connectAs(database.user, (await shown(database.id)).password, database.bbdd);
    try {
      const values = Array.from({ length: 2000 }, (_, i) => [i + 1, `row ${i} ${'x'.repeat(400)}`]);
      await connection.query('INSERT INTO notes (id, body) VALUES ?', [values]);
      await connection.query("INSERT INTO notes (id, body) VALUES (5000, 'it''s \"odd\" \\\\ ; `text` ñ €')");
      await connection.query(
        'CREATE TRIGGER notes_upper BEFORE INSERT ON notes FOR EACH ROW SET NEW.body = TRIM(NEW.body)',
      );
      // InnoDB refreshes its statistics in the background; ANALYZE makes them current now.
      await connection.query('ANALYZE TABLE notes');
    } finally {
      await connection.end();
    }
    const after = (await t.call<List>('GET', `service/${id}/ddbb/list/`, {}, { cookie })).body.data.ddbb[0];
    expect(after?.size).toBeGreaterThan(before + 500_000);
  });

  it('streams a dump that restores into a fresh database with the same tables and rows', async () => {
    const list = await t.call<List>('GET', `service/${id}/ddbb/list/`, {}, { cookie });
    const database = list.body.data.ddbb[0] as HostedDatabase;
    const response = await t.app.inject({
      method: 'GET',
      url: `/p247/service/${id}/ddbb/${database.id}/dump/`,
      headers: { 'x-dd-request': '1', cookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="${database.bbdd}.sql"; filename*=UTF-8''${database.bbdd}.sql`,
    );
    const dump = response.body;
    expect(dump.length).toBeGreaterThan(800_000);
    expect(dump).toContain('CREATE TABLE `notes`');
    expect(dump).toContain('notes_upper');
    expect(dump).toMatch(/-- Dump completed/);

    const restored = `${prefix}restore_${kind}`;
    await root.query(`CREATE DATABASE \`${restored}\` CHARACTER SET utf8mb4`);
    const result = await mariadbClient(restored, dump);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const snapshot = async (name: string) => {
      const [tables] = await root.query<mysql.RowDataPacket[]>(
        'SELECT table_name AS t FROM information_schema.tables WHERE table_schema = ? ORDER BY table_name',
        [name],
      );
      const [rows] = await root.query<mysql.RowDataPacket[]>(`SELECT id, body FROM \`${name}\`.notes ORDER BY id`);
      const [triggers] = await root.query<mysql.RowDataPacket[]>(
        'SELECT trigger_name AS t FROM information_schema.triggers WHERE trigger_schema = ?',
        [name],
      );
      return { tables, rows, triggers };
    };
    const original = await snapshot(database.bbdd);
    const copy = await snapshot(restored);
    expect(copy.rows).toHaveLength(2001);
    expect(copy).toEqual(original);
  });

  it('answers a dump of a database missing on the server with an error, not a broken file', async () => {
    const { body } = await create('temporary password');
    const database = body.data.ddbb;
    await root.query(`DROP DATABASE \`${database.bbdd}\``);
    const response = await t.app.inject({
      method: 'GET',
      url: `/p247/service/${id}/ddbb/${database.id}/dump/`,
      headers: { 'x-dd-request': '1', cookie },
    });
    expect(response.statusCode).toBe(502);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json().system.errors).toEqual(['No se ha podido exportar la base de datos']);
    // the drop is idempotent: deleting finishes what is left (its users)
    const removed = await t.call('POST', `service/${id}/ddbb/${database.id}/delete/`, {}, { cookie });
    expect(removed.body.system.errors).toEqual([]);
    expect(await hostsOf(database.user)).toEqual([]);
  });

  it('undoes a half-made create and takes the next name when MariaDB already has a user of that name', async () => {
    const list = await t.call<List>('GET', `service/${id}/ddbb/list/`, {}, { cookie });
    const highest = Math.max(...list.body.data.ddbb.map((d) => Number(d.bbdd.split('_').pop())), 0);
    const clash = `${base}_${highest + 1}`;
    // made outside the panel: the second user entry of the create clashes with it
    await root.query("CREATE USER ?@'127.0.0.1' IDENTIFIED BY 'someone else'", [clash]);
    const { body } = await create('fresh password 1');
    expect(body.system.errors).toEqual([]);
    expect(body.data.ddbb.bbdd).toBe(`${base}_${highest + 2}`);
    // nothing of the failed attempt is left, and the other user is untouched
    expect(await databaseExists(clash)).toBe(false);
    expect(await hostsOf(clash)).toEqual(['127.0.0.1']);
    expect(await canLogin(clash, 'someone else')).toBe(true);
    await root.query("DROP USER ?@'127.0.0.1'", [clash]);
  });

  it('databases sync reports what was changed behind the panel’s back, and repairs it', async () => {
    const made = [];
    for (const password of ['sync password a', 'sync password b', 'sync password c'])
      made.push((await create(password)).body.data.ddbb);
    const [a, b, c] = made as [HostedDatabase, HostedDatabase, HostedDatabase];
    const stray = `${prefix}stray`;
    await root.query("DROP USER ?@'127.0.0.1'", [a.user]);
    await root.query(`REVOKE ALL PRIVILEGES ON \`${b.bbdd.replaceAll('_', '\\_')}\`.* FROM ?@'localhost'`, [b.user]);
    await root.query("ALTER USER ?@'127.0.0.1' IDENTIFIED BY 'changed by hand'", [b.user]);
    await root.query("CREATE USER ?@'%' IDENTIFIED BY 'open to all'", [b.user]);
    await root.query(`DROP DATABASE \`${c.bbdd}\``);
    await root.query(`CREATE DATABASE \`${stray}\``);
    expect(await canLogin(a.user, 'sync password a')).toBe(false);

    const ddbb = createDatabasesService(
      t.database.db,
      t.config,
      new BrandService(t.database.db),
      TEST_SECRET_KEY,
      () => 0,
    );
    try {
      // (other tests of this file leave databases of their own under the prefix: not this test's)
      const byName = (drift: DatabaseDrift[]) =>
        drift
          .filter(({ name, problem }) => problem !== 'extra' || name === stray)
          .map(({ name, problem, repaired }) => `${name} ${problem} ${repaired}`)
          .sort();
      const expected = (repaired: boolean) =>
        [
          `${a.bbdd} user ${repaired}`,
          `${b.bbdd} grant ${repaired}`,
          `${b.bbdd} password ${repaired}`,
          `${b.bbdd} external_access ${repaired}`,
          `${c.bbdd} missing ${repaired}`,
          `${stray} extra false`,
        ].sort();
      expect(byName(await ddbb.sync({ dryRun: true }))).toEqual(expected(false));
      // the dry run changed nothing
      expect(await canLogin(a.user, 'sync password a')).toBe(false);
      expect(await databaseExists(c.bbdd)).toBe(false);

      expect(byName(await ddbb.sync({ dryRun: false }))).toEqual(expected(true));
      expect(await canLogin(a.user, 'sync password a')).toBe(true);
      expect(await canLogin(b.user, 'changed by hand')).toBe(false);
      expect(await hostsOf(b.user)).toEqual(['127.0.0.1', 'localhost']);
      const connection = await connectAs(b.user, 'sync password b', b.bbdd);
      await connection.query('CREATE TABLE back (id INT)');
      await connection.end();
      expect(await databaseExists(c.bbdd)).toBe(true);
      // What is left is only the database the panel does not know, which it never touches.
      expect(byName(await ddbb.sync({ dryRun: false }))).toEqual([`${stray} extra false`]);
      expect(await databaseExists(stray)).toBe(true);
    } finally {
      await ddbb.close();
      await root.query(`DROP DATABASE IF EXISTS \`${stray}\``);
    }
  });

  it('deletes the database and every one of its users', async () => {
    const list = await t.call<List>('GET', `service/${id}/ddbb/list/`, {}, { cookie });
    for (const database of list.body.data.ddbb) {
      await t.call('POST', `service/${id}/ddbb/${database.id}/toggle/externalaccess/`, {}, { cookie });
      const removed = await t.call('POST', `service/${id}/ddbb/${database.id}/delete/`, {}, { cookie });
      expect(removed.body.system.info).toEqual(['Base de datos eliminada']);
      expect(await databaseExists(database.bbdd)).toBe(false);
      expect(await hostsOf(database.user)).toEqual([]);
    }
    expect((await t.call<List>('GET', `service/${id}/ddbb/list/`, {}, { cookie })).body.data.ddbb).toEqual([]);
  });
});

describe.skipIf(!reachable)('the MariaDB driver on its own', () => {
  it('carries an admin password with quotes, backslashes and # exactly as written', async () => {
    const client = requireBinary('mariadb', 'mariadb-client');
    const dir = mkdtempSync(path.join(tmpdir(), 'p247-optfile-'));
    const file = path.join(dir, 'client.cnf');
    const password = `a"b'c\\d#e f;g\`h`;
    writeFileSync(file, clientOptionFile({ host: '127.0.0.1', port: 3306, user: 'ad"min', password }), { mode: 0o600 });
    const { stdout } = await run(client, [`--defaults-file=${file}`, '--print-defaults']);
    // --print-defaults prints one argument per option (the password is shown there, on purpose)
    expect(stdout).toContain(`--password=${password}`);
    expect(stdout).toContain('--user=ad"min');
    expect(stdout).toContain('--host=127.0.0.1');
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a missing dump tool and an unreachable server with clear errors', async () => {
    const tool = new MariaDbDriver({
      url: TEST_MARIADB_URL,
      localHosts: ['localhost'],
      dumpCommand: '/nonexistent/mariadb-dump',
    });
    try {
      await expect(tool.dump('mysql')).rejects.toMatchObject({ messageKey: 'ddbb.error.dump' });
      expect(await tool.usage(['t00000000_nothing_here'])).toEqual(new Map([['t00000000_nothing_here', 0]]));
      await expect(tool.dump('bad-name`; rm')).rejects.toThrow(/bad database name/);
    } finally {
      await tool.close();
    }
    const down = new MariaDbDriver({
      url: `mysql://root@127.0.0.1:${await freePort()}`,
      localHosts: ['localhost'],
      dumpCommand: 'mariadb-dump',
    });
    try {
      await expect(
        down.create({ name: 't00000000_x_1', user: 't00000000_x_1', password: 'whatever1', externalAccess: false }),
      ).rejects.toMatchObject({ messageKey: 'ddbb.error.server_down' });
    } finally {
      await down.close();
    }
  });
});
