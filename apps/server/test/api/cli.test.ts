import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrateToLatest, openDatabase } from '../../src/db/database.ts';
import type { PanelEvent } from '../../src/modules/realtime/event-bus.ts';
import { PostgresEventBus } from '../../src/modules/realtime/postgres-event-bus.ts';
import { startSmtpSink } from '../support/smtp-sink.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/test-database.ts';

// Each CLI call here is a process of its own (node + tsx, the migrations checked): about a second
// on a quiet machine, several on a busy one, and a test makes a dozen of them.
vi.setConfig({ testTimeout: 180_000 });

const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');
const CLI = 'apps/server/src/cli/panel.ts';

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI as the provider runs it: a real process, configured only through the environment. */
function runPanel(env: Record<string, string>, args: string[], stdin?: string): Promise<CliRun> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PANEL_')));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
      cwd: REPO_ROOT,
      env: { ...inherited, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

/** Runs a --json command that must succeed and returns its parsed output. */
async function panelJson<T = Record<string, unknown>>(env: Record<string, string>, args: string[], stdin?: string) {
  const run = await runPanel(env, [...args, '--json'], stdin);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as T;
}

describe('panel CLI without a database', () => {
  it('lists every command group with --help', async () => {
    const run = await runPanel({ PANEL_DATA_DIR: '/nonexistent/panel-cli' }, ['--help']);
    expect(run.code).toBe(0);
    for (const group of ['brand add', 'account add', 'user password', 'sessions end', 'permission set', 'seed demo']) {
      expect(run.stdout).toContain(group);
    }
  });

  it('refuses CR/LF in a name before touching the database', async () => {
    const run = await runPanel({ PANEL_DATA_DIR: '/nonexistent/panel-cli' }, [
      'account',
      'add',
      '--domain',
      'evil.test\r\nX-Injected: 1',
      '--brand',
      'demo',
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^Error: --domain: .* is not a valid domain name/);
  });
});

describe.each(DATABASE_KINDS)('panel CLI on %s', (kind) => {
  let database: TestDatabase;
  let dataDir: string;
  let env: Record<string, string>;
  let t: TestApp;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'p247-cli-'));
    if (kind === 'sqlite') {
      // The file the CLI opens through PANEL_DATA_DIR, also opened here to check what it wrote.
      const { db } = openDatabase({ sqliteFile: path.join(dataDir, 'panel.sqlite') });
      await migrateToLatest(db);
      database = { db, kind, destroy: () => db.destroy() };
      env = { PANEL_DATA_DIR: dataDir };
    } else {
      database = await createTestDatabase('postgres');
      env = { PANEL_DATA_DIR: dataDir, PANEL_DATABASE_URL: database.url ?? '' };
    }
    t = await buildTestApp(kind, { database });
  });

  afterAll(async () => {
    await t?.close();
    await database?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates a brand, an account, a user (password from stdin) and resources', async () => {
    const brand = await panelJson(env, [
      'brand',
      'add',
      '--slug',
      'acme',
      '--company',
      'Acme Hosting',
      '--color',
      'teal',
      '--host',
      'Panel.Acme.test',
      '--default',
    ]);
    expect(brand).toMatchObject({ slug: 'acme', id: expect.any(Number) });
    const account = await panelJson(env, [
      'account',
      'add',
      '--domain',
      'CLI.test',
      '--brand',
      'acme',
      '--name',
      'CLI',
    ]);
    expect(account).toMatchObject({ domain: 'cli.test', brand: 'acme' });
    const user = await panelJson(
      env,
      ['user', 'add', '--domain', 'cli.test', '--user', 'alice', '--password-stdin'],
      'first password 1\n',
    );
    expect(user).toMatchObject({ domain: 'cli.test', user: 'alice' });
    await panelJson(env, [
      'resource',
      'add',
      '--domain',
      'cli.test',
      '--reference',
      'cli.test',
      '--domain-part',
      '--service',
      '--mail',
      '--domain-expires',
      '2030-01-31',
      '--grant-user',
      'alice',
    ]);
    const bulk = await panelJson(env, [
      'resource',
      'add',
      '--domain',
      'cli.test',
      '--count',
      '30',
      '--prefix',
      'page',
      '--service',
      '--grant-user',
      'alice',
    ]);
    expect(bulk).toEqual({
      created: 30,
      skipped: 0,
      first: 'page0001.test',
      last: 'page0030.test',
      grantUser: 'alice',
    });

    const db = database.db;
    const brands = await db.selectFrom('brands').select(['slug', 'color', 'is_default']).orderBy('id').execute();
    expect(brands.filter((b) => b.is_default === 1).map((b) => b.slug)).toEqual(['acme']);
    expect(await db.selectFrom('brand_hosts').select('host').execute()).toEqual([{ host: 'panel.acme.test' }]);
    const resource = await db
      .selectFrom('resources')
      .selectAll()
      .where('reference', '=', 'cli.test')
      .executeTakeFirstOrThrow();
    expect(resource).toMatchObject({ has_domain: 1, has_service: 1, has_mail: 1, domain_expire_ts: 1_896_048_000 });
    // The hosting service came with its DNS zone and the provider's default records.
    expect(
      await db.selectFrom('dns_zones').select('service_id').where('service_id', '=', resource.id).execute(),
    ).toEqual([{ service_id: resource.id }]);
    const records = await db
      .selectFrom('dns_records')
      .select(['zona', 'type'])
      .where('service_id', '=', resource.id)
      .execute();
    expect(records.map((r) => `${r.zona || '@'} ${r.type}`).sort()).toEqual([
      '@ A',
      '@ AAAA',
      '@ MX',
      '@ NS',
      '@ NS',
      '@ TXT',
      '_dmarc TXT',
      'mail A',
      'www CNAME',
    ]);

    // The user logs in with what the CLI set, and sees the 31 resources through the API.
    const cookie = await t.login('cli.test', 'alice', 'first password 1');
    const { body } = await t.call<{ permissions: { reference: string }[] }>('GET', 'permission/list/', {}, { cookie });
    expect(body.data.permissions).toHaveLength(31);
  });

  it('sets and revokes permissions, telling running servers', async () => {
    const events: PanelEvent[] = [];
    const bus = kind === 'postgres' ? await PostgresEventBus.connect(database.url ?? '') : undefined;
    bus?.subscribe((event) => events.push(event));
    try {
      await panelJson(env, [
        'permission',
        'set',
        '--domain',
        'cli.test',
        '--user',
        'alice',
        '--reference',
        'cli.test',
        '--key',
        'domain_dns=read',
        '--key',
        'service_ftp=disabled',
      ]);
      await panelJson(env, [
        'permission',
        'revoke',
        '--domain',
        'cli.test',
        '--user',
        'alice',
        '--reference',
        'page0001.test',
      ]);
      const grants = await panelJson<{ reference: string; levels: Record<string, string> }[]>(env, [
        'permission',
        'list',
        '--domain',
        'cli.test',
        '--user',
        'alice',
      ]);
      expect(grants).toHaveLength(30);
      expect(grants.map((g) => g.reference)).not.toContain('page0001.test');
      const own = grants.find((g) => g.reference === 'cli.test');
      expect(own?.levels).toMatchObject({ domain: 'write', domain_dns: 'read', service_ftp: 'disabled' });

      if (bus) {
        // LISTEN/NOTIFY: what a server on the same database hears from the CLI process.
        await expect.poll(() => events.filter((e) => e.type === 'permissions.changed').length).toBe(2);
        expect(events[0]).toMatchObject({ type: 'permissions.changed', resourceId: expect.any(Number) });
      }
    } finally {
      await bus?.close();
    }
  });

  it('refuses an unknown level and names an unknown account, writing nothing to stdout', async () => {
    const level = await runPanel(env, [
      'permission',
      'set',
      '--domain',
      'cli.test',
      '--user',
      'alice',
      '--reference',
      'cli.test',
      '--all',
      'admin',
      '--json',
    ]);
    expect(level).toMatchObject({ code: 1, stdout: '' });
    expect(level.stderr).toBe('Error: --all: unknown level "admin" (one of disabled, read, write)\n');

    const account = await runPanel(env, ['user', 'list', '--domain', 'x.test', '--json']);
    expect(account).toEqual({ code: 1, stdout: '', stderr: "Error: No account 'x.test'\n" });
  });

  it('grants and takes the right to manage the account’s users, never from its last holder', async () => {
    const list = async () =>
      (
        (await panelJson(env, ['user', 'list', '--domain', 'cli.test'])) as { user: string; manageUsers: boolean }[]
      ).map((row) => [row.user, row.manageUsers]);
    const manager = (user: string, flag: string) =>
      runPanel(env, ['user', 'manager', '--domain', 'cli.test', '--user', user, flag, '--json']);
    await panelJson(
      env,
      ['user', 'add', '--domain', 'cli.test', '--user', 'bob', '--password-stdin'],
      'bob password 12\n',
    );
    expect(await list()).toEqual([
      ['alice', true],
      ['bob', false],
    ]);
    expect((await manager('bob', '--grant')).code).toBe(0);
    expect((await manager('alice', '--revoke')).code).toBe(0);
    expect(await list()).toEqual([
      ['alice', false],
      ['bob', true],
    ]);
    const last = await manager('bob', '--revoke');
    expect(last).toMatchObject({
      code: 1,
      stderr: 'Error: The account must keep at least one enabled user who manages users\n',
    });
    expect((await runPanel(env, ['user', 'manager', '--domain', 'cli.test', '--user', 'bob'])).stderr).toBe(
      'Error: Give one of --grant or --revoke\n',
    );
    expect((await manager('alice', '--grant')).code).toBe(0);
  });

  it('resets a password: the old one fails, the new one works, open sessions end', async () => {
    const cookie = await t.login('cli.test', 'alice', 'first password 1');
    const reset = await panelJson(env, [
      'user',
      'password',
      '--domain',
      'cli.test',
      '--user',
      'alice',
      '--password',
      'second password 2',
    ]);
    expect(reset).toMatchObject({ passwordChanged: true, sessionsEnded: true });

    const { body: lost } = await t.call('POST', 'user/info/', {}, { cookie });
    expect(lost.system.statusCode).toBe(101);
    await expect(t.login('cli.test', 'alice', 'first password 1')).rejects.toThrow(/login failed/);
    await expect(t.login('cli.test', 'alice', 'second password 2')).resolves.toMatch(/p247_sid=/);
  });

  it('ends every session of a user', async () => {
    await t.login('cli.test', 'alice', 'second password 2');
    await t.login('cli.test', 'alice', 'second password 2');
    const sessions = () =>
      database.db
        .selectFrom('sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .select('s.id')
        .where('u.username', '=', 'alice')
        .execute();
    expect((await sessions()).length).toBeGreaterThanOrEqual(2);
    await panelJson(env, ['sessions', 'end', '--domain', 'cli.test', '--user', 'alice']);
    expect(await sessions()).toEqual([]);
  });

  it('sets a legal text from a file and sends the outbox through SMTP', async () => {
    const file = path.join(dataDir, 'privacy.txt');
    writeFileSync(file, 'Who we are.\n\nWhat we keep.\n');
    await panelJson(env, [
      'legal',
      'set',
      '--brand',
      'acme',
      '--language',
      'en',
      '--title',
      'Privacy',
      '--text-file',
      file,
    ]);
    const legal = await database.db.selectFrom('legal_texts').selectAll().executeTakeFirstOrThrow();
    expect(legal).toMatchObject({ language: 'en', title: 'Privacy', body: 'Who we are.\n\nWhat we keep.' });

    const brand = await database.db
      .selectFrom('brands')
      .select('id')
      .where('slug', '=', 'acme')
      .executeTakeFirstOrThrow();
    await database.db
      .insertInto('outbox')
      .values({
        brand_id: brand.id,
        kind: 'contact',
        to_address: 'support@acme.test',
        reply_to: 'alice@cli.test',
        subject: 'Queued while SMTP was down',
        body: 'Hello',
        created_at: 1,
        error: 'connect ECONNREFUSED',
      })
      .execute();
    const sink = await startSmtpSink();
    try {
      const sent = await panelJson<{ sent: number[]; failed: unknown[] }>(
        { ...env, PANEL_SMTP_URL: `smtp://127.0.0.1:${sink.port}` },
        ['outbox', 'send'],
      );
      expect(sent.sent).toHaveLength(1);
      expect(sent.failed).toEqual([]);
      expect(sink.received[0]?.to).toEqual(['support@acme.test']);
    } finally {
      await sink.close();
    }
    const row = await database.db.selectFrom('outbox').select(['sent_at', 'error']).executeTakeFirstOrThrow();
    expect(row.sent_at).toEqual(expect.any(Number));
    expect(row.error).toBeNull();
  });

  it('seeds the demo and lists the accounts', async () => {
    const seeded = await panelJson(env, ['seed', 'demo']);
    expect(seeded).toEqual({ domain: 'demo.test', users: ['admin', 'viewer'] });
    // Both demo hosting services have their zone; demo.test's carries the demo records.
    const zones = await database.db
      .selectFrom('dns_zones as z')
      .innerJoin('resources as r', 'r.id', 'z.service_id')
      .select('r.reference')
      .where('r.reference', 'in', ['demo.test', 'parking-demo.test', 'shop-demo.test'])
      .orderBy('r.reference')
      .execute();
    expect(zones.map((z) => z.reference)).toEqual(['demo.test', 'parking-demo.test']);
    const dmarc = await database.db
      .selectFrom('dns_records as d')
      .innerJoin('resources as r', 'r.id', 'd.service_id')
      .select('d.value')
      .where('r.reference', '=', 'demo.test')
      .where('d.zona', '=', '_dmarc')
      .execute();
    expect(dmarc).toHaveLength(1);
    // Every card of both demo domains has something: glue records and DNSSEC entries included.
    for (const reference of ['demo.test', 'shop-demo.test']) {
      const id = (
        await database.db
          .selectFrom('resources')
          .select('id')
          .where('reference', '=', reference)
          .executeTakeFirstOrThrow()
      ).id;
      const glue = await database.db
        .selectFrom('domain_glue_records')
        .select('name')
        .where('resource_id', '=', id)
        .execute();
      const ds = await database.db
        .selectFrom('domain_ds_records')
        .select(['keytag', 'digest'])
        .where('resource_id', '=', id)
        .execute();
      expect(glue.length, reference).toBe(2);
      expect(glue.every((g) => g.name.endsWith(`.${reference}`))).toBe(true);
      expect(ds.length, reference).toBe(2);
    }
    const accounts = await panelJson<{ domain: string; brand: string }[]>(env, ['account', 'list']);
    expect(accounts).toEqual([
      { id: expect.any(Number), domain: 'cli.test', name: 'CLI', brand: 'acme' },
      { id: expect.any(Number), domain: 'demo.test', name: 'Demo S.L.', brand: 'demo' },
    ]);
  });

  it('puts back a daemon view dropped by hand: --dry-run only reports it, the sync recreates it', async () => {
    const answers = (view: string) =>
      sql`SELECT * FROM ${sql.table(view)}`.execute(database.db).then(
        ({ rows }) => rows.length,
        () => 'missing',
      );
    const mailboxes = await answers('mail_users_view');
    expect(mailboxes).toBeGreaterThan(0); // the demo's
    await sql`DROP VIEW mail_users_view`.execute(database.db);
    await sql`DROP VIEW ftp_users_view`.execute(database.db);

    const dry = await panelJson<{ mail: { views: unknown[] }; ftp: { views: unknown[] } }>(env, ['sync', '--dry-run']);
    expect(dry.mail.views).toEqual([{ view: 'mail_users_view', repaired: false }]);
    expect(dry.ftp.views).toEqual([{ view: 'ftp_users_view', repaired: false }]);
    expect(await answers('mail_users_view')).toBe('missing');

    const mail = await panelJson<{ views: unknown[]; folders: unknown[] }>(env, ['mail', 'sync']);
    expect(mail.views).toEqual([{ view: 'mail_users_view', repaired: true }]);
    expect(await answers('mail_users_view')).toBe(mailboxes);
    expect((await panelJson<{ views: unknown[] }>(env, ['ftp', 'sync'])).views).toEqual([
      { view: 'ftp_users_view', repaired: true },
    ]);
    expect(await answers('ftp_users_view')).toEqual(expect.any(Number));

    // `panel sync` repairs the rest (the embedded web driver's files of the services made by the
    // CLI here), after which it finds nothing anywhere and its text says so for each driver.
    expect((await runPanel(env, ['sync'])).code).toBe(0);
    const clean = await runPanel(env, ['sync']);
    expect(clean.code).toBe(0);
    expect(clean.stdout.match(/^No drift\./gm), clean.stdout).toHaveLength(6);
  });
});
