import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBinary } from '../../../../scripts/daemons/daemon-harness.ts';
import { UNLIMITED_PLAN } from '../../src/modules/plans/plan.ts';
import { buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

const HARNESS = path.resolve(import.meta.dirname, '../../../../integrations/whmcs/test/run-module.php');
const PASSWORD = 'Whmcs-made-pass-1';

/**
 * The WHMCS module's functions run by Debian's php-cli (integrations/whmcs/test/run-module.php)
 * with the parameter arrays WHMCS passes, against a panel listening on loopback: each action's
 * effect is checked as the customer or the provider sees it on the panel.
 */
describe('the WHMCS module against a running panel', () => {
  const php = requireBinary('php', 'php-cli');
  let t: TestApp;
  let port: number;
  let server: Record<string, unknown>;

  beforeAll(async () => {
    t = await buildTestApp('sqlite', {
      config: {
        'hosting.root': mkdtempSync(path.join(tmpdir(), 'p247-whmcs-')),
        'web.configDir': mkdtempSync(path.join(tmpdir(), 'p247-whmcs-web-')),
      },
    });
    // the provider's brand (the default one), with a customer of its own already
    await buildAccount(t.database.db, { domainName: 'earlier-customer.test' });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as { port: number }).port;
    const token = await t.services.provider.tokens.add('whmcs');
    server = {
      serverid: 1,
      serverhostname: '127.0.0.1',
      serverip: '127.0.0.1',
      serverport: String(port),
      serversecure: false,
      serveraccesshash: token,
      serverusername: '',
      serverpassword: '',
    };
  });
  afterAll(() => t.close());

  /**
   * One module function as WHMCS would call it: its answer, and what it logged. Run apart (not
   * spawnSync): the panel answering it lives in this process's event loop.
   */
  function run(command: string, params: Record<string, unknown> = {}): Promise<{ answer: unknown; log: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(php, [HARNESS, command], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.on('error', reject);
      child.on('close', (code) => {
        if (code !== 0) reject(new Error(`php ${command} exited ${code}: ${stderr}`));
        else resolve({ answer: JSON.parse(stdout), log: stderr });
      });
      child.stdin.end(JSON.stringify({ ...server, ...params }));
    });
  }
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
});
