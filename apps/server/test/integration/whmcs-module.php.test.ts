import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNLIMITED_PLAN } from '../../src/modules/plans/plan.ts';
import { buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { type ModuleRun, whmcsModule, whmcsServer } from '../support/whmcs-module.ts';

const PASSWORD = 'Whmcs-made-pass-1';

/**
 * The WHMCS module's functions run by Debian's php-cli (integrations/whmcs/test/run-module.php)
 * with the parameter arrays WHMCS passes, against a panel listening on loopback: each action's
 * effect is checked as the customer or the provider sees it on the panel.
 */
describe('the WHMCS module against a running panel', () => {
  let t: TestApp;
  let run: (command: string, params?: Record<string, unknown>) => Promise<ModuleRun>;
  let port: number;
  let server: Record<string, unknown>;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'p247-whmcs-'));
    t = await buildTestApp('sqlite', {
      config: {
        dataDir,
        'hosting.root': path.join(dataDir, 'www'),
        'mail.root': path.join(dataDir, 'mail'),
        'web.configDir': mkdtempSync(path.join(tmpdir(), 'p247-whmcs-web-')),
      },
    });
    // the provider's brand (the default one), with a customer of its own already
    await buildAccount(t.database.db, { domainName: 'earlier-customer.test' });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as { port: number }).port;
    server = whmcsServer('127.0.0.1', port, await t.services.provider.tokens.add('whmcs'));
    run = whmcsModule(server);
  });
  afterAll(() => t.close());

  const service = {
    serviceid: 42,
    pid: 3,
    domain: 'whmcs-cliente.test',
    username: 'owner',
    password: PASSWORD,
    clientsdetails: { email: 'owner@example.net' },
    configoption1: '',
    configoption2: '',
  };
  const login = (password: string) =>
    t.call('POST', 'user/login/', { domainName: service.domain, username: 'owner', password });

  it('tests the connection with the server’s token, and fails it with a wrong one', async () => {
    expect((await run('TestConnection')).answer).toEqual({ success: true, error: '' });
    const wrong = await run('TestConnection', { serveraccesshash: `p247p_${'B'.repeat(43)}` });
    expect(wrong.answer).toMatchObject({ success: false });
  });

  it('creates the account (once, when WHMCS retries), and its owner logs in', async () => {
    const made = await run('CreateAccount', service);
    expect(made.answer).toBe('success');
    // a retry after a lost answer sends the same Idempotency-Key: answered from the record
    expect((await run('CreateAccount', service)).answer).toBe('success');
    expect(
      await t.database.db.selectFrom('accounts').select('id').where('domain_name', '=', service.domain).execute(),
    ).toHaveLength(1);
    expect((await login(PASSWORD)).response.statusCode).toBe(200);
  });

  it('suspends with WHMCS’s reason (the login refused, told why) and unsuspends', async () => {
    expect((await run('SuspendAccount', { ...service, suspendreason: 'Overdue on Payment' })).answer).toBe('success');
    const refused = await login(PASSWORD);
    expect(refused.response.statusCode).toBe(403);
    expect(refused.body.system.errors[0]).toContain('Overdue on Payment');
    expect((await run('UnsuspendAccount', service)).answer).toBe('success');
    expect((await login(PASSWORD)).response.statusCode).toBe(200);
  });

  it('changes the password and the package, and refuses a plan the panel does not have', async () => {
    expect((await run('ChangePassword', { ...service, password: 'Whmcs-new-pass-2' })).answer).toBe('success');
    expect((await login('Whmcs-new-pass-2')).response.statusCode).toBe(200);
    await t.services.plans.create('gold', {
      ...UNLIMITED_PLAN,
      webSpaceMb: 2048,
      trafficMb: 10_240,
      databaseSpaceMb: 512,
    });
    expect((await run('ChangePackage', { ...service, configoption1: 'gold' })).answer).toBe('success');
    expect((await t.services.plans.get('gold')).services).toBe(1);
    expect((await run('ChangePackage', { ...service, configoption1: 'platinum' })).answer).toContain(
      'There is no such plan',
    );
  });

  it('signs the customer on by a link that works once', async () => {
    const { answer } = (await run('ServiceSingleSignOn', service)) as {
      answer: { success: boolean; redirectTo: string };
    };
    expect(answer.success).toBe(true);
    const link = new URL(answer.redirectTo);
    const first = await fetch(`http://127.0.0.1:${port}${link.pathname}${link.search}`, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/');
    expect(first.headers.get('set-cookie')).toContain('p247_sid=');
    const again = await fetch(`http://127.0.0.1:${port}${link.pathname}${link.search}`, { redirect: 'manual' });
    expect(again.status).toBe(403);
  });

  it('reports usage for WHMCS’s services of that server, in MB against the plan', async () => {
    const { answer, log } = await run('UsageUpdate', { serverid: 1 });
    expect(answer).toBe('success');
    const rows = log
      .split('\n')
      .filter((line) => line.startsWith('tblhosting.update '))
      .map((line) => JSON.parse(line.slice('tblhosting.update '.length)) as Record<string, unknown>);
    expect(rows).toContainEqual(
      expect.objectContaining({ server: 1, domain: service.domain, disklimit: 2560, bwlimit: 10_240, bwusage: 0 }),
    );
  });

  it('never writes the token or a password into the module log', async () => {
    const { log } = await run('ChangePassword', { ...service, password: 'Whmcs-new-pass-3' });
    expect(log).not.toContain(String(server.serveraccesshash));
    expect(log).not.toContain('Whmcs-new-pass-3');
  });

  it('terminates the account (its owner gone), again without complaint, and creates it anew after', async () => {
    expect((await run('TerminateAccount', service)).answer).toBe('success');
    const accounts = () =>
      t.database.db.selectFrom('accounts').select('id').where('domain_name', '=', service.domain).execute();
    expect(await accounts()).toEqual([]);
    expect((await login('Whmcs-new-pass-3')).response.statusCode).not.toBe(200);
    // WHMCS's retry of a termination whose answer was lost
    expect((await run('TerminateAccount', service)).answer).toBe('success');
    // the same WHMCS service created again (same parameters, so the same Idempotency-Key): made anew
    expect((await run('CreateAccount', service)).answer).toBe('success');
    expect(await accounts()).toHaveLength(1);
    expect((await login(PASSWORD)).response.statusCode).toBe(200);
  });
});
