import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ProviderService, ProviderTermination } from '@panel247/contract/provider';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBinary } from '../../../../scripts/daemons/daemon-harness.ts';
import { ResticRepositories } from '../../src/drivers/backups/restic-repositories.ts';
import { createDnsDriver } from '../../src/drivers/dns/create-dns-driver.ts';
import { createBackupService } from '../../src/modules/backups/create-backup-service.ts';
import { UNLIMITED_PLAN } from '../../src/modules/plans/plan.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

const PASSWORD = 'Billing-made-pass-1';

/** The panel's restic repositories, to see what a termination kept. */
function repositoriesOf(t: TestApp): ResticRepositories {
  return new ResticRepositories({
    repository: t.config.backups.repository as string,
    passwordFile: t.config.backups.passwordFile as string,
    binary: t.config.backups.resticBinary,
  });
}

/**
 * The provisioning API for the provider's billing system: provider tokens only, an
 * Idempotency-Key on each creating call, and each call's effect seen as a customer sees it.
 */
describe.each(DATABASE_KINDS)('provisioning API on %s', (kind) => {
  let t: TestApp;
  let token: string;
  let customerToken: string;
  let customer: BuiltAccount;
  let keys = 0;
  const webDir = mkdtempSync(path.join(tmpdir(), 'p247-provider-web-'));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'p247-provider-'));

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      config: {
        dataDir,
        'hosting.root': path.join(dataDir, 'www'),
        'mail.root': path.join(dataDir, 'mail'),
        'web.configDir': webDir,
      },
    });
    token = await t.services.provider.tokens.add('whmcs');
    customer = await buildAccount(t.database.db, { domainName: 'cliente-api.test' });
    const cookie = await t.login(customer.domainName, customer.username, customer.password);
    const made = await t.call<{ token: string }>(
      'POST',
      'user/apitokens/create/',
      {
        name: 'script',
        expiresInDays: '30',
        password: customer.password,
        scope: [`${customer.resources['cliente-api.test']}:write`],
      },
      { cookie },
    );
    customerToken = made.body.data.token;
  });
  afterAll(() => t.close());

  /** A billing system's call: its token, form-encoded, an Idempotency-Key on POST unless given. */
  async function call<T = unknown>(
    method: 'GET' | 'POST',
    route: string,
    params: Record<string, string> = {},
    options: { token?: string | null; key?: string | null } = {},
  ) {
    const headers: Record<string, string> = {};
    const bearer = options.token === undefined ? token : options.token;
    if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
    const key = options.key === undefined && method === 'POST' ? `test-key-${++keys}` : options.key;
    if (key) headers['idempotency-key'] = key;
    const url = `${t.config.basePath}provider/${route}`;
    const form = new URLSearchParams(params).toString();
    const response =
      method === 'GET'
        ? await t.app.inject({ method, url: form ? `${url}?${form}` : url, headers })
        : await t.app.inject({
            method,
            url,
            headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
            payload: form,
          });
    return { response, body: response.json() as { system: { valid: boolean; errors: string[] }; data: T } };
  }
  const account = { domain: 'nuevo-cliente.test', username: 'owner', password: PASSWORD, email: 'owner@example.net' };
  const create = (key?: string, params: Record<string, string> = account) =>
    call<{ service: ProviderService; username: string }>('POST', 'account/create/', params, key ? { key } : {});

  it('answers the provider’s token only: not without one, a wrong or revoked one, nor a customer’s', async () => {
    // a provider token opens no customer route
    const info = await t.app.inject({
      method: 'POST',
      url: `${t.config.basePath}user/info/`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(info.statusCode).toBe(401);
    expect((await call('GET', 'ping/')).body.data).toEqual({ panel: 'Panel247' });
    // without an Authorization header it is a browser's call: the CSRF rule refuses it first
    expect((await call('GET', 'ping/', {}, { token: null })).response.statusCode).toBe(403);
    expect((await call('GET', 'ping/', {}, { token: `p247p_${'A'.repeat(43)}` })).response.statusCode).toBe(401);
    expect((await call('GET', 'ping/', {}, { token: customerToken })).response.statusCode).toBe(401);
    const spare = await t.services.provider.tokens.add('spare');
    expect((await call('GET', 'ping/', {}, { token: spare })).response.statusCode).toBe(200);
    await t.services.provider.tokens.revoke('spare');
    expect((await call('GET', 'ping/', {}, { token: spare })).response.statusCode).toBe(401);
  });

  it('creates an account with its owner and its service on a plan: the owner logs in and finds it', async () => {
    await t.services.plans.create('basic', {
      ...UNLIMITED_PLAN,
      webSpaceMb: 500,
      sites: 3,
      mailboxes: 2,
      mailboxMb: 100,
      databases: 1,
      phpWorkers: 4,
    });
    const made = await create(undefined, { ...account, plan: 'basic' });
    expect(made.response.statusCode).toBe(200);
    expect(made.body.data).toEqual({
      service: { id: expect.any(Number), domain: account.domain, plan: 'basic', state: 'active', suspendedReason: '' },
      username: 'owner',
    });
    const cookie = await t.login(account.domain, 'owner', PASSWORD);
    const overview = await t.call<{ service: { plan: { name: string } } }>(
      'GET',
      `service/${made.body.data.service.id}/`,
      {},
      { cookie },
    );
    expect(overview.body.data.service.plan.name).toBe('basic');
    expect((await create(undefined, account)).body.system.errors).toEqual([
      `Ya existe una cuenta para ${account.domain}`,
    ]);
    const badPlan = await create(undefined, { ...account, domain: 'sin-plan.test', plan: 'nope' });
    expect(badPlan.response.statusCode).toBe(404);
    expect(
      await t.database.db.selectFrom('accounts').select('id').where('domain_name', '=', 'sin-plan.test').execute(),
    ).toEqual([]);
    const bad = await create(undefined, { domain: 'x', username: 'Bad Name', password: 'short' });
    expect(bad.response.statusCode).toBe(400);
  });

  it('suspends a service: its owner is logged out and refused, told why; unsuspending lets them in again', async () => {
    const cookie = await t.login(account.domain, 'owner', PASSWORD);
    const serviceId = (await call<{ service: ProviderService }>('POST', `service/${account.domain}/unsuspend/`)).body
      .data.service.id;
    const mailbox = await t.call(
      'POST',
      `service/${serviceId}/correo/create/`,
      { name: 'info', password: PASSWORD },
      { cookie },
    );
    expect(mailbox.response.statusCode).toBe(200);
    const ftp = await t.call(
      'POST',
      `service/${serviceId}/ftp/create/`,
      { ftpUser: 'web', password: PASSWORD },
      { cookie },
    );
    expect(ftp.response.statusCode).toBe(200);
    // what Dovecot and ProFTPD read: the mailbox may not log in (its mail still arrives), the FTP login is gone
    const logins = async () => ({
      mail: (
        await sql<{
          nologin: string | null;
        }>`SELECT nologin FROM mail_users_view WHERE email = ${`info@${account.domain}`}`.execute(t.database.db)
      ).rows,
      ftp: (
        await sql<{
          userid: string;
        }>`SELECT userid FROM ftp_users_view WHERE userid = ${`web@${account.domain}`}`.execute(t.database.db)
      ).rows.length,
    });
    expect(await logins()).toEqual({ mail: [{ nologin: null }], ftp: 1 });
    const suspended = await call<{ service: ProviderService }>('POST', `service/${account.domain}/suspend/`, {
      reason: 'factura impagada',
    });
    expect(suspended.body.data.service).toMatchObject({ state: 'suspended', suspendedReason: 'factura impagada' });
    expect((await t.call('POST', 'user/info/', {}, { cookie })).body.system.valid).toBe(false);
    const refused = await t.call('POST', 'user/login/', {
      domainName: account.domain,
      username: 'owner',
      password: PASSWORD,
    });
    expect(refused.response.statusCode).toBe(403);
    expect(refused.body.system.errors).toEqual([
      'Esta cuenta está suspendida: factura impagada. Ponte en contacto con tu proveedor',
    ]);
    const id = suspended.body.data.service.id;
    const nginx = () => readFile(path.join(webDir, 'live', String(id), 'nginx.conf'), 'utf8');
    const sites = () => readFile(path.join(webDir, 'live', String(id), 'sites', `${account.domain}.conf`), 'utf8');
    expect(`${await nginx()}${await sites().catch(() => '')}`).toContain('error_page 503 /suspended.html;');
    expect(await logins()).toEqual({ mail: [{ nologin: 'y' }], ftp: 0 });
    await call('POST', `service/${account.domain}/unsuspend/`);
    await t.login(account.domain, 'owner', PASSWORD);
    expect(`${await nginx()}${await sites().catch(() => '')}`).not.toContain('suspended.html');
    expect(await logins()).toEqual({ mail: [{ nologin: null }], ftp: 1 });
  });

  it('changes the plan (a downgrade it exceeds refused, naming what) and the owner’s password', async () => {
    const cookie = await t.login(account.domain, 'owner', PASSWORD);
    const id = (
      await t.database.db
        .selectFrom('resources')
        .select('id')
        .where('reference', '=', account.domain)
        .executeTakeFirstOrThrow()
    ).id;
    const db = await t.call('POST', `service/${id}/ddbb/create/`, { password: PASSWORD }, { cookie });
    expect(db.response.statusCode).toBe(200);
    await t.services.plans.create('none', { ...UNLIMITED_PLAN, databases: 0 });
    const refused = await call('POST', `service/${account.domain}/plan/`, { plan: 'none' });
    expect(refused.response.statusCode).toBe(409);
    expect(refused.body.system.errors[0]).toContain(`${account.domain}: databases 1 > 0`);
    const changed = await call<{ service: ProviderService }>('POST', `service/${account.domain}/plan/`, {
      plan: 'default',
    });
    expect(changed.body.data.service.plan).toBe('default');

    const password = await call('POST', `service/${account.domain}/password/`, { password: 'Another-pass-22' });
    expect(password.response.statusCode).toBe(200);
    expect((await t.call('POST', 'user/info/', {}, { cookie })).body.system.valid).toBe(false);
    await t.login(account.domain, 'owner', 'Another-pass-22');
  });

  it('hands out a login link that logs the owner in once, within a minute', async () => {
    const link = await call<{ url: string; expiresIn: number }>('POST', `service/${account.domain}/login-link/`);
    expect(link.body.data.expiresIn).toBe(60);
    const url = new URL(link.body.data.url);
    expect(url.pathname).toBe(`${t.config.basePath}user/login/link/`);
    const first = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe('/');
    const session = String(first.headers['set-cookie'] ?? '').split(';')[0] as string;
    const info = await t.call<{ user: string }>('POST', 'user/info/', {}, { cookie: session });
    expect(info.body.data.user).toBe('owner');
    const second = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(second.statusCode).toBe(403);
    expect(second.body).toContain('El enlace de acceso no es válido, ya se usó o ha caducado');
    expect(second.body).toContain('<a href="/login/">Ir a la página de acceso</a>');
    expect(second.headers['set-cookie']).toBeUndefined();

    // a suspended account's link is refused, saying why
    await call('POST', `service/${account.domain}/suspend/`, { reason: 'factura <impagada>' });
    const held = new URL((await call<{ url: string }>('POST', `service/${account.domain}/login-link/`)).body.data.url);
    const refused = await t.app.inject({ method: 'GET', url: `${held.pathname}${held.search}` });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('Esta cuenta está suspendida: factura &lt;impagada&gt;.');
    expect(refused.headers['set-cookie']).toBeUndefined();
    await call('POST', `service/${account.domain}/unsuspend/`);

    const late = new URL((await call<{ url: string }>('POST', `service/${account.domain}/login-link/`)).body.data.url);
    t.clock.advance(61);
    expect((await t.app.inject({ method: 'GET', url: `${late.pathname}${late.search}` })).statusCode).toBe(403);
  });

  it('reports usage per service against its plan, and of every service', async () => {
    const one = await call<{ usage: { domain: string; plan: string; counts: Record<string, unknown> } }>(
      'GET',
      `service/${account.domain}/usage/`,
    );
    expect(one.body.data.usage).toMatchObject({
      domain: account.domain,
      plan: 'default',
      trafficBytes: 0,
      counts: { databases: { used: 1, limit: 5 } },
    });
    const all = await call<{ services: { domain: string }[] }>('GET', 'usage/');
    expect(all.body.data.services.map((service) => service.domain)).toContain(account.domain);
    expect((await call('GET', 'service/nadie.test/usage/')).response.statusCode).toBe(404);
  });

  it('terminates a service: its last backup kept, every row and its home gone, its account too; asked again, the same answer', async () => {
    requireBinary('restic', 'restic');
    const gone = { ...account, domain: 'baja.test' };
    const made = await create('baja-create-1', gone);
    const id = made.body.data.service.id;
    const cookie = await t.login(gone.domain, 'owner', PASSWORD);
    expect(
      (await t.call('POST', `service/${id}/correo/create/`, { name: 'info', password: PASSWORD }, { cookie })).body
        .system.valid,
    ).toBe(true);
    const home = path.join(dataDir, 'www', gone.domain);
    mkdirSync(home, { recursive: true });
    writeFileSync(path.join(home, 'index.html'), 'hola');

    const ended = await call<{ termination: ProviderTermination }>('POST', `service/${gone.domain}/terminate/`);
    expect(ended.response.statusCode).toBe(200);
    const { termination } = ended.body.data;
    expect(termination).toMatchObject({ domain: gone.domain, state: 'terminated', error: '' });
    expect(termination.lastBackup).toMatch(/^[0-9a-f]{8,}$/);
    expect(termination.keptUntil).toBe(Math.floor(t.clock.now() / 1000) + 30 * 86_400);
    // the last backup holds the home as it was
    const restic = repositoriesOf(t).of(id);
    const snapshots = await restic.snapshots([`service:${id}`]);
    expect(snapshots.map((one) => one.id.slice(0, 8))).toEqual([termination.lastBackup.slice(0, 8)]);
    // nothing of it is left: its rows, its account and users, its home
    const db = t.database.db;
    expect(await db.selectFrom('resources').select('id').where('id', '=', id).execute()).toEqual([]);
    expect(await db.selectFrom('mailboxes').select('id').where('service_id', '=', id).execute()).toEqual([]);
    expect(await db.selectFrom('accounts').select('id').where('domain_name', '=', gone.domain).execute()).toEqual([]);
    expect(await db.selectFrom('service_changes').select('id').where('service_id', '=', id).execute()).toEqual([]);
    expect(existsSync(home)).toBe(false);
    expect((await t.login(gone.domain, 'owner', PASSWORD).catch(() => 'refused')) === 'refused').toBe(true);

    // asked again (a billing system's retry), the same answer; other calls find no service
    const again = await call<{ termination: ProviderTermination }>('POST', `service/${gone.domain}/terminate/`);
    expect(again.body.data.termination).toEqual(termination);
    expect((await call('POST', `service/${gone.domain}/suspend/`)).response.statusCode).toBe(404);
    expect((await call('POST', 'service/nunca-existio.test/terminate/')).response.statusCode).toBe(404);
    expect(
      (await call('POST', `service/${customer.domainName}/terminate/`, {}, { token: customerToken })).response
        .statusCode,
    ).toBe(401);

    // made again with the key of the first creation: a new service, not the old answer
    const remade = await create('baja-create-1', gone);
    expect(remade.response.statusCode).toBe(200);
    expect(remade.response.headers['idempotent-replayed']).toBeUndefined();
    expect(remade.body.data.service.id).not.toBe(id);

    // once its days are over, the day's prune lets the last backup go
    await db.updateTable('service_terminations').set({ keep_until: 1 }).where('service_id', '=', id).execute();
    const { backups, close } = createBackupService(db, t.config, createDnsDriver(t.config), TEST_SECRET_KEY, () => 0);
    try {
      await backups.prune();
    } finally {
      await close();
    }
    expect(await restic.snapshots([`service:${id}`])).toEqual([]);
    const row = await db
      .selectFrom('service_terminations')
      .select('backup_released_at')
      .where('service_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.backup_released_at).not.toBeNull();
  });

  it('refuses to terminate a service whose resource is a registered domain too', async () => {
    const registered = await buildAccount(t.database.db, {
      domainName: 'registrado.test',
      resources: { 'registrado.test': { hasService: true, hasDomain: true } },
    });
    const refused = await call('POST', `service/${registered.domainName}/terminate/`);
    expect(refused.response.statusCode).toBe(409);
    expect(refused.body.system.errors[0]).toContain('registro se da de baja aparte');
  });

  it('needs an Idempotency-Key on a creating call, and refuses one used for another request', async () => {
    const keyless = await call('POST', 'account/create/', { ...account, domain: 'sin-clave.test' }, { key: null });
    expect(keyless.response.statusCode).toBe(400);
    expect(keyless.body.system.errors[0]).toContain('Idempotency-Key');
    const first = await create('same-key-1234', { ...account, domain: 'una-vez.test' });
    expect(first.response.statusCode).toBe(200);
    const again = await create('same-key-1234', { ...account, domain: 'una-vez.test' });
    expect(again.response.statusCode).toBe(200);
    expect(again.response.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    const accounts = await t.database.db
      .selectFrom('accounts')
      .select('id')
      .where('domain_name', '=', 'una-vez.test')
      .execute();
    expect(accounts).toHaveLength(1);
    const other = await create('same-key-1234', { ...account, domain: 'otra.test' });
    expect(other.response.statusCode).toBe(409);

    // a first call still running is waited for; one whose instance died is taken over
    const tokenId = (
      await t.database.db
        .selectFrom('provider_tokens')
        .select('id')
        .where('name', '=', 'whmcs')
        .executeTakeFirstOrThrow()
    ).id;
    const now = Math.floor(t.clock.now() / 1000);
    const running = (key: string, createdAt: number) =>
      t.database.db
        .insertInto('provider_idempotency')
        .values({
          token_id: tokenId,
          idempotency_key: key,
          request_hash: 'x'.repeat(64),
          state: 'running',
          status_code: null,
          answer: null,
          created_at: createdAt,
        })
        .execute();
    await running('still-running-1', now - 5);
    const waiting = await create('still-running-1', { ...account, domain: 'espera.test' });
    expect(waiting.response.statusCode).toBe(409);
    expect(waiting.body.system.errors[0]).toContain('todavía se está haciendo');
    await running('died-running-1', now - 3600);
    expect((await create('died-running-1', { ...account, domain: 'retomada.test' })).response.statusCode).toBe(200);
    expect(t.database.db).toBeTruthy();
  });
});
