import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { HostingService } from '@panel247/contract/hosting';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlansService } from '../../src/modules/plans/create-plans-service.ts';
import { UNLIMITED_PLAN } from '../../src/modules/plans/plan.ts';
import { PlanExceededError, type PlansService } from '../../src/modules/plans/plans.service.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

const NONE = UNLIMITED_PLAN;
const PASSWORD = 'Plan-limit-pass-1';

describe.each(DATABASE_KINDS)('plans on %s', (kind) => {
  let t: TestApp;
  let plans: PlansService;
  let account: BuiltAccount;
  let cookie: string;
  let id: number;
  const domain = 'planes.test';
  const webDir = mkdtempSync(path.join(tmpdir(), 'p247-plans-web-'));

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      config: {
        'hosting.root': mkdtempSync(path.join(tmpdir(), 'p247-plans-')),
        'web.configDir': webDir,
        'mail.root': mkdtempSync(path.join(tmpdir(), 'p247-plans-mail-')),
        'web.phpSockets': { '8.2': '/run/php/panel247-8.2', '8.3': '/run/php/panel247-8.3' },
        'mail.defaultQuotaMb': 100,
        'databases.maxPerService': 7,
      },
    });
    plans = createPlansService(t.database.db, t.config, () => Math.floor(t.clock.now() / 1000), t.services.hosting);
    await plans.create('small', {
      ...NONE,
      sites: 2,
      mailboxes: 2,
      mailboxMb: 50,
      aliases: 1,
      ftpAccounts: 2,
      databases: 1,
      phpVersions: ['8.2'],
      phpWorkers: 3,
    });
    account = await buildAccount(t.database.db, {
      domainName: domain,
      resources: { [domain]: { hasService: true, hasMail: true } },
    });
    id = account.resources[domain] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(() => t.close());

  const service = () => ({ id, domain });
  const post = (route: string, params: Record<string, string | string[]>) =>
    t.call('POST', `service/${id}/${route}`, params, { cookie });
  const overview = async () =>
    (await t.call<{ service: HostingService }>('GET', `service/${id}/`, {}, { cookie })).body;

  it('gives an existing service the plan default, with the limits of the configuration', async () => {
    const plan = await plans.get('default');
    expect(plan).toMatchObject({ databases: 7, webSpaceMb: 10_240, mailboxMb: 10_240, sites: null, services: 1 });
    const { data } = await overview();
    expect(data.service.plan).toMatchObject({ name: 'default', databases: { used: 0, limit: 7 } });
    expect(data.service.usage.BBDD).toEqual({ used: 0, limit: 7 });
  });

  it('holds the service to each limit of its plan at its edge, with an error naming the limit', async () => {
    await plans.assign(service(), 'small');
    // sites: the main domain's is one of the two
    expect((await post('subdomain/create/', { subDomain: 'tienda', folder: 'tienda' })).response.statusCode).toBe(200);
    const site = await post('subdomain/create/', { subDomain: 'blog', folder: 'blog' });
    expect(site.response.statusCode).toBe(409);
    expect(site.body.system.errors).toEqual(['Tu plan permite 2 sitios y este servicio ya los tiene todos']);

    // the largest mailbox, then mailboxes
    const big = await post('correo/create/', { name: 'grande', password: PASSWORD, quota: '51' });
    expect(big.response.statusCode).toBe(400);
    expect(big.body.system.errors).toEqual(['El buzón más grande que permite tu plan es de 50 MB']);
    expect((await post('correo/create/', { name: 'uno', password: PASSWORD, quota: '50' })).response.statusCode).toBe(
      200,
    );
    // without a quota: the plan's largest, being under the configured default of 100
    const second = await post('correo/create/', { name: 'dos', password: PASSWORD });
    expect(second.response.statusCode).toBe(200);
    expect((second.body.data as { correo: { quota: number } }).correo.quota).toBe(50 * 1024 * 1024);
    const third = await post('correo/create/', { name: 'tres', password: PASSWORD });
    expect(third.response.statusCode).toBe(409);
    expect(third.body.system.errors).toEqual(['Tu plan permite 2 buzones y este servicio ya los tiene todos']);

    expect((await post('alias/create/', { name: 'ventas', target: ['uno@planes.test'] })).response.statusCode).toBe(
      200,
    );
    const alias = await post('alias/create/', { name: 'info', target: ['uno@planes.test'] });
    expect(alias.response.statusCode).toBe(409);
    expect(alias.body.system.errors).toEqual(['Tu plan permite 1 alias y este servicio ya los tiene todos']);

    expect((await post('ftp/create/', { ftpUser: 'web', password: PASSWORD })).response.statusCode).toBe(200);
    expect((await post('ftp/create/', { ftpUser: 'disenio', password: PASSWORD })).response.statusCode).toBe(200);
    const ftp = await post('ftp/create/', { ftpUser: 'tercero', password: PASSWORD });
    expect(ftp.response.statusCode).toBe(409);
    expect(ftp.body.system.errors).toEqual(['Tu plan permite 2 cuentas FTP y este servicio ya las tiene todas']);

    expect((await post('ddbb/create/', { password: PASSWORD })).response.statusCode).toBe(200);
    const database = await post('ddbb/create/', { password: PASSWORD });
    expect(database.response.statusCode).toBe(409);
    expect(database.body.system.errors).toEqual(['Has llegado al límite de 1 bases de datos de tu plan']);

    // PHP: only what the plan offers, and the overview offers only that
    expect((await post('php/', { phpVersion: '8.3' })).response.statusCode).toBe(400);
    expect((await post('php/', { phpVersion: '8.2' })).response.statusCode).toBe(200);
    const { data } = await overview();
    expect(data.service.phpVersions).toEqual(['8.2']);
    expect(data.service.plan).toEqual({
      name: 'small',
      sites: { used: 2, limit: 2 },
      mailboxes: { used: 2, limit: 2 },
      aliases: { used: 1, limit: 1 },
      ftpAccounts: { used: 2, limit: 2 },
      databases: { used: 1, limit: 1 },
    });
  });

  it('two creates at once cannot both take the last one', async () => {
    await plans.update('small', { ftpAccounts: 3 });
    const answers = await Promise.all(
      ['cuatro', 'cinco', 'seis'].map((user) => post('ftp/create/', { ftpUser: user, password: PASSWORD })),
    );
    expect(answers.map((answer) => answer.response.statusCode).sort()).toEqual([200, 409, 409]);
    expect((await plans.usage(service())).counts.ftpAccounts).toBe(3);
  });

  it('refuses a downgrade the service exceeds, naming what exceeds, and changes nothing', async () => {
    await plans.create('tiny', { ...NONE, mailboxes: 1, databases: 0, phpVersions: ['8.3'] });
    const refused = await plans.assign(service(), 'tiny').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PlanExceededError);
    expect((refused as PlanExceededError).excess).toEqual([
      { service: domain, limit: 'mailboxes', used: 2, allowed: 1 },
      { service: domain, limit: 'databases', used: 1, allowed: 0 },
      { service: domain, limit: 'phpVersions', used: '8.2', allowed: '8.3' },
    ]);
    expect((await plans.get('small')).services).toBe(1);
    // lowering the plan the service is on: refused too, and the limit kept
    await expect(plans.update('small', { sites: 1 })).rejects.toThrow(PlanExceededError);
    expect((await plans.get('small')).sites).toBe(2);
    // raising it applies at once
    await plans.update('small', { sites: 3 });
    expect((await post('subdomain/create/', { subDomain: 'blog', folder: 'blog' })).response.statusCode).toBe(200);
  });

  it("renders the service's PHP pool again when its plan's workers change", async () => {
    const pool = () => readFile(path.join(webDir, 'live', String(id), 'php-fpm-8.2.conf'), 'utf8');
    expect(await pool()).toContain('pm.max_children = 3');
    await plans.update('small', { phpWorkers: 9 });
    expect(await pool()).toContain('pm.max_children = 9');
  });

  it('refuses to remove a plan in use, and removes one that is not', async () => {
    await expect(plans.remove('small')).rejects.toThrow(/plan.error.in_use/);
    await plans.remove('tiny');
    expect((await plans.list()).map((plan) => plan.name)).toEqual(['default', 'small']);
  });

  it('refuses a plan with a bad name, a negative limit, unknown PHP versions or too many workers', async () => {
    await expect(plans.create('Bad Name', NONE)).rejects.toThrow(/plan.error.name/);
    await expect(plans.create('neg', { ...NONE, sites: -1 })).rejects.toThrow(/plan.error.limit_value/);
    await expect(plans.create('php', { ...NONE, phpVersions: ['5.6'] })).rejects.toThrow(/plan.error.php_versions/);
    await expect(plans.create('workers', { ...NONE, phpWorkers: 0 })).rejects.toThrow(/plan.error.php_workers/);
    await expect(plans.create('small', NONE)).rejects.toThrow(/plan.error.name_taken/);
  });
});
