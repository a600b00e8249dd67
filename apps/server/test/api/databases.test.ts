import type { HostedDatabase } from '@panel247/contract/databases';
import type { SignonForm } from '@panel247/contract/signon';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EmbeddedDatabasesDriver } from '../../src/drivers/databases/embedded.driver.ts';
import { DaemonError } from '../../src/errors.ts';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { SignonTokens } from '../../src/modules/signon/signon-tokens.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

const PHPMYADMIN_KEY = 'phpmyadmin-shared-key-0123456789abcdef';
const WEBFTP_KEY = 'webftp-shared-key-0123456789abcdef';
const LIMIT = 4;

type One = { ddbb: HostedDatabase };
type List = { ddbb: HostedDatabase[]; limit: number };

describe.each(DATABASE_KINDS)('database API on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let other: BuiltAccount;
  let cookie: string;
  let otherCookie: string;
  let id: number;
  let otherId: number;

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      config: {
        'databases.namePrefix': 'p247t_',
        'databases.maxPerService': LIMIT,
        'databases.phpmyadminKey': PHPMYADMIN_KEY,
        'databases.port': 3307,
        'hosting.webftpKey': WEBFTP_KEY,
      },
    });
    account = await buildAccount(t.database.db, {
      domainName: 'datos.test',
      resources: { 'datos.test': { hasService: true } },
    });
    other = await buildAccount(t.database.db, {
      domainName: 'otros-datos.test',
      resources: { 'otros-datos.test': { hasService: true } },
    });
    id = account.resources['datos.test'] as number;
    otherId = other.resources['otros-datos.test'] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
    otherCookie = await t.login(other.domainName, other.username, other.password);
  });
  afterAll(() => t.close());
  afterEach(() => vi.restoreAllMocks());

  const rows = () => t.database.db.selectFrom('hosted_databases').selectAll().orderBy('id').execute();
  const create = (password: string, who = cookie, service = id) =>
    t.call<One>('POST', `service/${service}/ddbb/create/`, { password }, { cookie: who });
  const removeAll = async () => {
    await t.database.db.deleteFrom('hosted_databases').where('service_id', '=', id).execute();
  };

  it('creates a database named after the service, keeps the password sealed and shows it on request', async () => {
    const { body } = await create('db secret 1');
    expect(body.system.info).toEqual(['Base de datos creada']);
    expect(body.data.ddbb).toEqual({
      id: expect.any(Number),
      bbdd: 'p247t_datostest_1',
      user: 'p247t_datostest_1',
      password: '',
      externalAccess: false,
      eliminable: true,
      size: 0,
    });
    const [row] = await rows();
    expect(row?.password_sealed).toMatch(/^v1\./);
    expect(row?.password_sealed).not.toContain('db secret 1');

    const second = await create('db secret 2');
    expect(second.body.data.ddbb.bbdd).toBe('p247t_datostest_2');

    const list = await t.call<List>('GET', `service/${id}/ddbb/list/`, {}, { cookie });
    expect(list.body.data.limit).toBe(LIMIT);
    expect(list.body.data.ddbb.map((d) => [d.bbdd, d.password])).toEqual([
      ['p247t_datostest_1', ''],
      ['p247t_datostest_2', ''],
    ]);
    const shown = await t.call<One>('GET', `service/${id}/ddbb/${body.data.ddbb.id}/`, {}, { cookie });
    expect(shown.body.data.ddbb.password).toBe('db secret 1');
    await removeAll();
  });

  it.each([
    `it's "quoted"`,
    'back`tick`s and \\ backslash',
    'semi;colon; DROP DATABASE x; --',
    '100% %_wild_%',
    "'); DROP USER root; --",
    'ñandú-contraseña-€',
  ])('takes the hostile password %j as it is', async (password) => {
    const { body } = await create(password);
    expect(body.system.errors).toEqual([]);
    const shown = await t.call<One>('GET', `service/${id}/ddbb/${body.data.ddbb.id}/`, {}, { cookie });
    expect(shown.body.data.ddbb.password).toBe(password);
    const changed = await t.call<One>(
      'POST',
      `service/${id}/ddbb/${body.data.ddbb.id}/changepassword/`,
      { password: `${password}!2` },
      { cookie },
    );
    expect(changed.body.system.info).toEqual(['Contraseña cambiada']);
    const again = await t.call<One>('GET', `service/${id}/ddbb/${body.data.ddbb.id}/`, {}, { cookie });
    expect(again.body.data.ddbb.password).toBe(`${password}!2`);
    await removeAll();
  });

  it.each([
    ['a newline', 'line one\nline two'],
    ['a carriage return', 'line one\rline two'],
    ['a NUL', 'nul\u0000inside'],
    ['a tab', 'tab\tinside'],
    ['300 characters', 'p'.repeat(300)],
    ['129 characters', 'p'.repeat(129)],
    ['7 characters', 'short12'],
    ['nothing', ''],
  ])('refuses a password with %s and writes nothing', async (_what, password) => {
    const { response, body } = await create(password);
    expect(response.statusCode).toBe(400);
    expect(body.system.inputs).toEqual(['password']);
    expect(await rows()).toEqual([]);
  });

  it('accepts 128 characters, and refuses a bad new password without touching the old one', async () => {
    const { body } = await create('x'.repeat(128));
    expect(body.system.errors).toEqual([]);
    const did = body.data.ddbb.id;
    for (const password of ['a\nb-long-enough', 'p'.repeat(300), 'short']) {
      const refused = await t.call('POST', `service/${id}/ddbb/${did}/changepassword/`, { password }, { cookie });
      expect(refused.body.system.inputs).toEqual(['password']);
    }
    const shown = await t.call<One>('GET', `service/${id}/ddbb/${did}/`, {}, { cookie });
    expect(shown.body.data.ddbb.password).toBe('x'.repeat(128));
    await removeAll();
  });

  it('refuses a database past the plan’s limit, and numbers on after a deletion', async () => {
    const created: HostedDatabase[] = [];
    for (let i = 0; i < LIMIT; i += 1) created.push((await create(`db secret ${i}`)).body.data.ddbb);
    const refused = await create('db secret x');
    expect(refused.response.statusCode).toBe(409);
    expect(refused.body.system.valid).toBe(false);
    expect(refused.body.system.errors).toEqual([`Has llegado al límite de ${LIMIT} bases de datos de tu plan`]);
    expect(await rows()).toHaveLength(LIMIT);
    // the first goes; the next one takes the number after the highest in use
    const first = created[0] as HostedDatabase;
    expect((await t.call('GET', `service/${id}/ddbb/${first.id}/delete/`, {}, { cookie })).body.system.info).toEqual([
      'Base de datos eliminada',
    ]);
    expect((await create('db secret y')).body.data.ddbb.bbdd).toBe(`p247t_datostest_${LIMIT + 1}`);
    await removeAll();
  });

  it('keeps a change the database server fails, says so, and applies it on "try again"', async () => {
    const FAILED_RETRYING =
      'Hecho en el panel, pero el servidor aún no ha podido aplicarlo. Se volverá a intentar; puedes reintentarlo ahora.';
    const applying = async () =>
      (await t.call<{ applying: unknown }>('GET', `service/${id}/ddbb/list/`, {}, { cookie })).body.data.applying;
    const retry = async () => {
      const { body } = await t.call('POST', `service/${id}/ddbb/apply/`, {}, { cookie });
      expect(body.system.info).toEqual([
        'Todos los cambios de las bases de datos están aplicados en el servidor de bases de datos',
      ]);
      expect(await applying()).toBeNull();
    };
    const create$ = vi
      .spyOn(EmbeddedDatabasesDriver.prototype, 'create')
      .mockRejectedValueOnce(new DaemonError('ddbb.error.server_down', 'connect ECONNREFUSED'));
    const failed = await create('db secret 1');
    expect(failed.response.statusCode).toBe(200);
    expect(failed.body.system.info).toContain(FAILED_RETRYING);
    expect(failed.body.system.job).toMatchObject({ status: 'failed' });
    // the daemon's own words are the provider's (panel jobs changes), never the customer's
    expect(JSON.stringify(failed.body)).not.toContain('ECONNREFUSED');
    expect(await rows()).toHaveLength(1);
    expect(await applying()).toMatchObject({ state: 'failing', reason: 'failed' });
    await retry();
    expect(create$).toHaveBeenCalledTimes(2);

    const did = failed.body.data.ddbb.id;
    const password$ = vi
      .spyOn(EmbeddedDatabasesDriver.prototype, 'changePassword')
      .mockRejectedValueOnce(new DaemonError('ddbb.error.refused', 'ALTER USER: refused'));
    const badChange = await t.call(
      'POST',
      `service/${id}/ddbb/${did}/changepassword/`,
      { password: 'db secret 2' },
      { cookie },
    );
    expect(badChange.body.system.info).toContain(FAILED_RETRYING);
    // the panel's row is the truth: the new password, set on the server by the next attempt
    expect((await t.call<One>('GET', `service/${id}/ddbb/${did}/`, {}, { cookie })).body.data.ddbb.password).toBe(
      'db secret 2',
    );
    await retry();
    expect(password$).toHaveBeenLastCalledWith(`p247t_datostest_1`, 'db secret 2', 'db secret 2');

    const drop$ = vi
      .spyOn(EmbeddedDatabasesDriver.prototype, 'drop')
      .mockRejectedValueOnce(new DaemonError('ddbb.error.server_down', 'DROP: gone'));
    const badDelete = await t.call('POST', `service/${id}/ddbb/${did}/delete/`, {}, { cookie });
    expect(badDelete.body.system.info).toContain(FAILED_RETRYING);
    expect(await rows()).toEqual([]);
    await retry();
    expect(drop$).toHaveBeenCalledTimes(2);
    vi.restoreAllMocks();
  });

  it('skips a name the database server holds outside the panel to the next number', async () => {
    vi.spyOn(EmbeddedDatabasesDriver.prototype, 'ownership').mockResolvedValueOnce('foreign');
    const { body } = await create('db secret 1');
    expect(body.data.ddbb.bbdd).toBe('p247t_datostest_2');
    expect(body.data.ddbb.user).toBe('p247t_datostest_2');
    expect((await rows()).map((row) => row.name)).toEqual(['p247t_datostest_2']);
    vi.restoreAllMocks();
    await removeAll();
  });

  it('names databases of a long international domain within 64 characters', async () => {
    const reference = `españa-${'datos'.repeat(9)}.test`;
    const long = await buildAccount(t.database.db, { resources: { [reference]: { hasService: true } } });
    const longCookie = await t.login(long.domainName, long.username, long.password);
    const { body } = await create('db secret 1', longCookie, long.resources[reference] as number);
    const name = body.data.ddbb.bbdd;
    expect(name).toMatch(/^p247t_xnespaa[a-z0-9]+_1$/);
    expect(name.length).toBe(64 - 7 + 2);
    expect(body.data.ddbb.user).toBe(name);
    await t.database.db
      .deleteFrom('hosted_databases')
      .where('service_id', '=', long.resources[reference] as number)
      .execute();
  });

  it('toggles external access and returns the updated database', async () => {
    const { body } = await create('db secret 1');
    const did = body.data.ddbb.id;
    const on = await t.call<One>('POST', `service/${id}/ddbb/${did}/toggle/externalaccess/`, {}, { cookie });
    expect(on.body.data.ddbb).toMatchObject({ id: did, externalAccess: true, password: '' });
    expect(on.body.system.info).toEqual(['Acceso externo activado']);
    const off = await t.call<One>('GET', `service/${id}/ddbb/${did}/toggle/externalaccess/`, {}, { cookie });
    expect(off.body.data.ddbb.externalAccess).toBe(false);
    expect(off.body.system.info).toEqual(['Acceso externo desactivado']);
    await removeAll();
  });

  it('deletes only eliminable databases', async () => {
    const { body } = await create('db secret 1');
    const did = body.data.ddbb.id;
    await t.database.db.updateTable('hosted_databases').set({ eliminable: 0 }).where('id', '=', did).execute();
    const refused = await t.call('POST', `service/${id}/ddbb/${did}/delete/`, {}, { cookie });
    expect(refused.response.statusCode).toBe(403);
    expect(await rows()).toHaveLength(1);
    await removeAll();
  });

  it('streams a dump as an SQL download named after the database', async () => {
    const { body } = await create('db secret 1');
    const did = body.data.ddbb.id;
    const response = await t.app.inject({
      method: 'GET',
      url: `/p247/service/${id}/ddbb/${did}/dump/`,
      headers: { 'x-dd-request': '1', cookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/sql; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="p247t_datostest_1.sql"; filename*=UTF-8''p247t_datostest_1.sql`,
    );
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toMatch(/^-- Panel247 database dump\n/);
    expect(response.body).toContain(
      'CREATE DATABASE IF NOT EXISTS `p247t_datostest_1` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;',
    );

    vi.spyOn(EmbeddedDatabasesDriver.prototype, 'dump').mockRejectedValueOnce(
      new DaemonError('ddbb.error.dump', 'exit 2: Access denied'),
    );
    const failed = await t.app.inject({
      method: 'GET',
      url: `/p247/service/${id}/ddbb/${did}/dump/`,
      headers: { 'x-dd-request': '1', cookie },
    });
    expect(failed.statusCode).toBe(502);
    expect(failed.json().system.errors).toEqual(['No se ha podido exportar la base de datos']);
    await removeAll();
  });

  it('follows service_ddbb levels: read sees the list; only write shows the password, signs on, dumps and changes', async () => {
    const { body } = await create('db secret 1');
    const did = body.data.ddbb.id;
    const reader = await buildUser(t.database.db, account, 'ddbb-reader', {
      'datos.test': { ...allKeys('disabled'), service: 'read', service_ddbb: 'read' },
    });
    const none = await buildUser(t.database.db, account, 'ddbb-none', {
      'datos.test': { ...allKeys('disabled'), service: 'read', service_ddbb: 'disabled' },
    });
    const readerCookie = await t.login(account.domainName, reader.username, reader.password);
    const noneCookie = await t.login(account.domainName, none.username, none.password);

    const reads: [string, string][] = [['GET', `service/${id}/ddbb/list/`]];
    // The see-password and phpMyAdmin entries stay shown, but the password and a sign-on open the
    // database for writing: each route, by each method, answers no permission and reveals nothing.
    const secrets: [string, string][] = [
      ['GET', `service/${id}/ddbb/${did}/`],
      ['POST', `service/${id}/ddbb/${did}/`],
      ['GET', `service/${id}/ddbb/${did}/login/`],
      ['POST', `service/${id}/ddbb/${did}/login/`],
    ];
    const writes: [string, string, Record<string, string>][] = [
      ['POST', `service/${id}/ddbb/create/`, { password: 'db secret 2' }],
      ['POST', `service/${id}/ddbb/${did}/changepassword/`, { password: 'db secret 2' }],
      ['POST', `service/${id}/ddbb/${did}/toggle/externalaccess/`, {}],
      ['POST', `service/${id}/ddbb/${did}/delete/`, {}],
    ];
    for (const [method, path] of reads) {
      const response = await t.app.inject({
        method: method as 'GET',
        url: `/p247/${path}`,
        headers: { 'x-dd-request': '1', cookie: readerCookie },
      });
      expect(response.statusCode, path).toBe(200);
    }
    const signons = async () => (await t.database.db.selectFrom('signon_tokens').select('token_hash').execute()).length;
    const signonsBefore = await signons();
    for (const [method, path] of secrets) {
      const { response, body } = await t.call(method as 'GET' | 'POST', path, {}, { cookie: readerCookie });
      expect(response.statusCode, `${method} ${path}`).toBe(403);
      expect(body.system.errors, path).toEqual(['No tienes permiso para realizar esta acción']);
      expect(body.data, path).toBeNull();
      expect(response.body, path).not.toContain('db secret 1');
    }
    expect(await signons()).toBe(signonsBefore);
    const shown = await t.call<One>('GET', `service/${id}/ddbb/${did}/`, {}, { cookie });
    expect(shown.body.data.ddbb.password).toBe('db secret 1');
    for (const [method, path, params] of writes) {
      const { response } = await t.call(method as 'POST', path, params, { cookie: readerCookie });
      expect(response.statusCode, path).toBe(403);
    }
    const readerDump = await t.app.inject({
      method: 'GET',
      url: `/p247/service/${id}/ddbb/${did}/dump/`,
      headers: { 'x-dd-request': '1', cookie: readerCookie },
    });
    expect(readerDump.statusCode).toBe(403);
    const dumpCall = ['GET', `service/${id}/ddbb/${did}/dump/`, {}] as const;
    for (const [method, path, params] of [
      ...[...reads, ...secrets].map(([m, p]) => [m, p, {}] as const),
      dumpCall,
      ...writes,
    ]) {
      const response = await t.app.inject({
        method: method as 'GET' | 'POST',
        url: `/p247/${path}`,
        headers: { 'x-dd-request': '1', cookie: noneCookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: method === 'POST' ? new URLSearchParams(params).toString() : undefined,
      });
      expect(response.statusCode, path).toBe(404);
    }
    expect(await rows()).toHaveLength(1);
    expect((await rows())[0]?.external_access).toBe(0);
    await removeAll();
  });

  it('answers another account’s service and databases as not found', async () => {
    const mine = (await create('db secret 1')).body.data.ddbb;
    const theirs = (await create('db secret 1', otherCookie, otherId)).body.data.ddbb;
    expect(theirs.bbdd).toBe('p247t_otrosdatostest_1');
    const paths = [
      `service/${otherId}/ddbb/list/`,
      `service/${otherId}/ddbb/${theirs.id}/`,
      `service/${otherId}/ddbb/${theirs.id}/dump/`,
      `service/${otherId}/ddbb/${theirs.id}/login/`,
      // their database through my service id
      `service/${id}/ddbb/${theirs.id}/`,
      `service/${id}/ddbb/${theirs.id}/dump/`,
      `service/${id}/ddbb/${theirs.id}/login/`,
      `service/${id}/ddbb/${theirs.id}/delete/`,
      `service/${id}/ddbb/${theirs.id}/toggle/externalaccess/`,
    ];
    for (const path of paths) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/p247/${path}`,
        headers: { 'x-dd-request': '1', cookie },
      });
      expect(response.statusCode, path).toBe(404);
      expect(response.json().system.statusCode, path).toBe(404);
    }
    const change = await t.call(
      'POST',
      `service/${id}/ddbb/${theirs.id}/changepassword/`,
      { password: 'stolen password' },
      { cookie },
    );
    expect(change.response.statusCode).toBe(404);
    expect((await create('db secret 2', cookie, otherId)).response.statusCode).toBe(404);
    const theirsShown = await t.call<One>('GET', `service/${otherId}/ddbb/${theirs.id}/`, {}, { cookie: otherCookie });
    expect(theirsShown.body.data.ddbb.password).toBe('db secret 1');
    expect(mine.bbdd).toBe('p247t_datostest_1');
    await t.database.db.deleteFrom('hosted_databases').execute();
  });

  it('signs on to phpMyAdmin with a one-time token only the hand-off script’s key redeems, once', async () => {
    const password = `it's "quoted" \\ and \`ticked\``;
    const { body } = await create(password);
    const did = body.data.ddbb.id;
    const login = await t.call<SignonForm>('POST', `service/${id}/ddbb/${did}/login/`, {}, { cookie });
    expect(login.body.data).toEqual({
      action: '/phpmyadmin/panel247-signon.php',
      method: 'post',
      fields: { user: 'p247t_datostest_1', token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
    });
    expect(JSON.stringify(login.body.data)).not.toContain('quoted');
    const token = login.body.data.fields.token as string;

    expect((await t.call('POST', 'phpmyadmin/redeem/', { token, key: WEBFTP_KEY })).response.statusCode).toBe(403);
    expect((await t.call('POST', 'phpmyadmin/redeem/', { token, key: '' })).response.statusCode).toBe(403);
    // a phpMyAdmin token is no WebFTP token (and a failed try uses it up)
    expect((await t.call('POST', 'webftp/redeem/', { token, key: WEBFTP_KEY })).response.statusCode).toBe(404);
    expect((await t.call('POST', 'phpmyadmin/redeem/', { token, key: PHPMYADMIN_KEY })).response.statusCode).toBe(404);

    const fresh = await t.call<SignonForm>('GET', `service/${id}/ddbb/${did}/login/`, {}, { cookie });
    const freshToken = fresh.body.data.fields.token as string;
    const redeemed = await t.call('POST', 'phpmyadmin/redeem/', { token: freshToken, key: PHPMYADMIN_KEY });
    expect(redeemed.body.data).toEqual({
      user: 'p247t_datostest_1',
      password,
      host: '127.0.0.1',
      port: 3307,
      database: 'p247t_datostest_1',
    });
    const again = await t.call('POST', 'phpmyadmin/redeem/', { token: freshToken, key: PHPMYADMIN_KEY });
    expect(again.response.statusCode).toBe(404);
    expect(again.body.system.errors).toEqual(['El acceso ha caducado o ya se ha usado']);

    // expired after 60 s
    const late = await t.call<SignonForm>('GET', `service/${id}/ddbb/${did}/login/`, {}, { cookie });
    t.clock.advance(61);
    const expired = await t.call('POST', 'phpmyadmin/redeem/', {
      token: late.body.data.fields.token as string,
      key: PHPMYADMIN_KEY,
    });
    expect(expired.response.statusCode).toBe(404);

    // a brand with its own phpMyAdmin host gets the hand-off script there
    await t.database.db.updateTable('brands').set({ phpmyadmin_host: 'pma.datos.example' }).execute();
    const branded = await t.call<SignonForm>('GET', `service/${id}/ddbb/${did}/login/`, {}, { cookie });
    expect(branded.body.data.action).toBe('https://pma.datos.example/phpmyadmin/panel247-signon.php');
    await t.database.db.updateTable('brands').set({ phpmyadmin_host: '' }).execute();
    await removeAll();
  });
});

describe('database API without a phpMyAdmin key', () => {
  it('says phpMyAdmin is not set up, and refuses every redemption', async () => {
    const t = await buildTestApp('sqlite');
    try {
      const account = await buildAccount(t.database.db, {
        domainName: 'sin-clave.test',
        resources: { 'sin-clave.test': { hasService: true } },
      });
      const cookie = await t.login(account.domainName, account.username, account.password);
      const id = account.resources['sin-clave.test'] as number;
      const { body } = await t.call<One>('POST', `service/${id}/ddbb/create/`, { password: 'db secret 1' }, { cookie });
      expect(body.data.ddbb.bbdd).toBe('sinclavetest_1');
      const login = await t.call<SignonForm>('GET', `service/${id}/ddbb/${body.data.ddbb.id}/login/`, {}, { cookie });
      expect(login.response.statusCode).toBe(409);
      expect(login.body.system.errors).toEqual(['phpMyAdmin no está configurado en este servidor']);
      // Even a token issued some other way opens nothing without the key.
      const token = await new SignonTokens(t.database.db, () => Math.floor(Date.now() / 1000)).issue(
        'phpmyadmin',
        body.data.ddbb.id,
      );
      const redeem = await t.call('POST', 'phpmyadmin/redeem/', { token, key: 'x'.repeat(40) });
      expect(redeem.response.statusCode).toBe(403);
    } finally {
      await t.close();
    }
  });
});
