import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isAliasTarget, mailLocalPartProblem } from '@panel247/contract/mail-rules';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from '../../src/db/database.ts';
import { runPanel } from '../support/panel-cli.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/test-database.ts';

interface ScaleJson {
  user: string;
  bigService: { id: number; reference: string };
  parts: { part: string; created: number; seconds: number }[];
  password: string;
}

// Small counts: the same code path as the defaults (10,000 of each), in a fraction of the time.
const SMALL = ['--domains', '30', '--records', '50', '--mailboxes', '12', '--aliases', '7', '--sites', '11'];
const SCALE_ARGS = ['demo', 'scale', ...SMALL, '--ftp', '13', '--databases', '2', '--json'];

describe.each(DATABASE_KINDS)('demo scale on %s', (kind) => {
  let database: TestDatabase;
  let dataDir: string;
  let env: Record<string, string>;
  let t: TestApp;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'p247-scale-'));
    if (kind === 'sqlite') {
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

  it('builds the set in bulk, and the demo admin lists every part of it through the API', async () => {
    const run = await runPanel(env, SCALE_ARGS);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as ScaleJson;
    expect(result.user).toBe('admin@demo.test');
    expect(result.bigService.reference).toBe('scale00001.test');
    const created = Object.fromEntries(result.parts.map((part) => [part.part, part.created]));
    expect(created).toMatchObject({
      resources: 30,
      'mailboxes + aliases': 19,
      sites: 11,
      'ftp accounts': 13,
      databases: 2,
    });
    // The zone holds 50 records with the provider's defaults it started with.
    expect(created['dns records']).toBeGreaterThan(30);
    expect(created['dns records']).toBeLessThan(50);

    const cookie = await t.login('demo.test', 'admin', 'panel247-demo');
    const get = async <T>(url: string, params: Record<string, string> = {}) => {
      const { body } = await t.call<T>('GET', url, params, { cookie });
      expect(body.system.valid).toBe(true);
      return body.data;
    };
    const { permissions } = await get<{ permissions: { reference: string }[] }>('permission/list/');
    const scaleRefs = permissions.map((p) => p.reference).filter((ref) => ref.startsWith('scale'));
    expect(scaleRefs).toHaveLength(30);
    expect(scaleRefs).toContain('scale00030.test');

    const id = String(result.bigService.id);
    const page = { page: '1' };
    const dns = await get<{ dnss: { zona: string; type: string }[]; total: number }>(`service/${id}/dns/list/`, page);
    expect(dns.total).toBe(50);
    expect(dns.dnss).toHaveLength(10);
    const allDns = await get<{ dnss: { type: string }[] }>(`service/${id}/dns/list/`);
    expect(new Set(allDns.dnss.map((r) => r.type))).toEqual(
      new Set(['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SRV', 'CAA', 'NS']),
    );

    const mail = await get<{ total: number }>(`service/${id}/mail/list/`, page);
    expect(mail.total).toBe(19);
    const { correo } = await get<{ correo: { user: string }[] }>(`service/${id}/correo/list/`);
    expect(correo).toHaveLength(12);
    expect(correo.every((box) => mailLocalPartProblem(box.user, false) === undefined)).toBe(true);
    const { alias } = await get<{ alias: { alias: string; name: string }[] }>(`service/${id}/alias/list/`);
    expect(alias).toHaveLength(7);
    expect(alias.every((a) => isAliasTarget(a.name) && a.name.endsWith('@scale00001.test'))).toBe(true);

    // Sites: the 11 and the main one.
    expect((await get<{ total: number }>(`service/${id}/subdomain/list/`, page)).total).toBe(12);
    const ftp = await get<{ ftps: { id: number; user: string; directorio: string }[]; total: number }>(
      `service/${id}/ftp/list/`,
      page,
    );
    expect(ftp.total).toBe(13);
    expect(ftp.ftps[0]).toMatchObject({ user: 'ftp00001@scale00001.test', directorio: 'sites/site00001' });
    expect((await get<{ ddbb: unknown[] }>(`service/${id}/ddbb/list/`)).ddbb).toHaveLength(2);

    // One bcrypt hash serves every FTP account, and it opens with the set's password.
    const hashes = await database.db
      .selectFrom('ftp_accounts')
      .select('password_hash')
      .where('service_id', '=', result.bigService.id)
      .execute();
    const distinct = [...new Set(hashes.map((row) => row.password_hash))];
    expect(distinct).toHaveLength(1);
    expect(await bcrypt.compare(result.password, (distinct[0] as string).replace(/^\$2y\$/, '$2b$'))).toBe(true);
  });

  it('adds nothing when run again', async () => {
    const run = await runPanel(env, SCALE_ARGS);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as ScaleJson;
    expect(result.parts.map((part) => part.created)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('refuses a panel that drives a real daemon, before opening its database', async () => {
    const run = await runPanel({ ...env, PANEL_FTP_DRIVER: 'proftpd' }, SCALE_ARGS);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^Error: demo scale writes its rows in bulk for the embedded drivers only.*FTP \(proftpd\)/,
    );
  });
});
