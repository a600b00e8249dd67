import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

describe.each(DATABASE_KINDS)('envelope and error mapping on %s', (kind) => {
  let t: TestApp;
  let cookie: string;

  beforeAll(async () => {
    t = await buildTestApp(kind);
    const account = await buildAccount(t.database.db, { domainName: 'envelope.test' });
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(() => t.close());

  it('wraps answers in the envelope with the x-dd header and the version', async () => {
    const { response, body } = await t.call('GET', 'config/get/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-dd']).toBe('1');
    expect(body.system).toMatchObject({ valid: true, errors: [], inputs: [], info: [], statusCode: 200, job: null });
    expect(body.system.mlcVer).toMatch(/^\d+\.\d+\.\d+/);
    expect(body.data).toMatchObject({ company: 'Test Hosting', channel: 'panel247_channel', basePath: '/p247/' });
  });

  it('answers unknown API routes with a 404 envelope', async () => {
    const { response, body } = await t.call('GET', 'no/such/route/', {}, { cookie });
    expect(response.statusCode).toBe(404);
    expect(body.system).toMatchObject({ valid: false, statusCode: 404, errors: ['Recurso no encontrado'] });
  });

  it('translates errors with the language parameter or the _lang cookie', async () => {
    const english = await t.call('GET', 'no/such/route/', { language: 'en' });
    expect(english.body.system.errors).toEqual(['Resource not found']);
    const catalan = await t.call('GET', 'no/such/route/', {}, { headers: { cookie: '_lang=ca' } });
    expect(catalan.body.system.errors).toEqual(['Recurs no trobat']);
  });

  it('maps field errors to inputs by position', async () => {
    const { response, body } = await t.call('POST', 'user/login/', { domainName: 'bad domain!', username: '' });
    expect(response.statusCode).toBe(400);
    expect(body.system.inputs).toEqual(['domainName', 'username', 'password']);
    expect(body.system.errors).toEqual([
      'Nombre de dominio no válido',
      'Este campo es obligatorio',
      'Este campo es obligatorio',
    ]);
  });

  it('answers the router’s own errors in the envelope with the security headers, never echoing the path', async () => {
    const long = 'a'.repeat(101);
    const cases = [
      { url: `/p247/domain/${long}/`, status: 404, error: 'Recurso no encontrado', echo: long },
      { url: '/p247/domain/%E0%A4%A/', status: 400, error: 'La petición no es válida', echo: '%E0%A4%A' },
    ];
    for (const { url, status, error, echo } of cases) {
      const response = await t.app.inject({ method: 'GET', url, headers: { cookie, 'x-dd-request': '1' } });
      expect(response.statusCode, url).toBe(status);
      expect(response.headers['x-dd'], url).toBe('1');
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.json().system, url).toMatchObject({ valid: false, statusCode: status, errors: [error] });
      expect(response.body, url).not.toContain(echo);
      expect(response.body, url).not.toContain('FST_ERR');
    }
    // Outside the API a malformed path is a plain 400 with the documents' headers.
    const page = await t.app.inject({ method: 'GET', url: '/%E0%A4%A' });
    expect(page.statusCode).toBe(400);
    expect(page.headers['content-security-policy']).toBeDefined();
    expect(page.body).not.toContain('%E0');
  });

  it('answers a malformed or out-of-range id in the path like a missing one: a 404 envelope', async () => {
    const missing = await t.call('POST', 'permission/999999/', {}, { cookie });
    expect(missing.response.statusCode).toBe(404);
    for (const id of ['abc', '0', '-1', '1e3', '0x10', '1.0', '%201', '2147483648', '99999999999999999999']) {
      const { response, body } = await t.call('POST', `permission/${id}/`, {}, { cookie });
      expect(response.statusCode, id).toBe(404);
      expect(body, id).toEqual(missing.body);
    }
    // Still session first: without one the answer is 101, whatever the id.
    expect((await t.call('POST', 'permission/abc/')).body.system.statusCode).toBe(101);
  });

  it('answers a malformed path id on every kind of resource route with the same 404', async () => {
    const own = String(
      (await t.call<{ permissions: { id: number }[] }>('GET', 'permission/list/', {}, { cookie })).body.data
        .permissions[0]?.id,
    );
    for (const path of [
      'domain/abc/',
      'service/abc/dns/list/',
      `service/${own}/dns/abc/`,
      'service/abc/correo/list/',
      'service/abc/ftp/list/',
      `service/${own}/ddbb/x1/`,
      'service/1e3/',
      'job/not-a-job/',
    ]) {
      const { response, body } = await t.call('GET', path, {}, { cookie });
      expect(response.statusCode, path).toBe(404);
      expect(body.system, path).toMatchObject({
        valid: false,
        statusCode: 404,
        inputs: [],
        errors: ['Recurso no encontrado'],
      });
    }
  });

  it('keeps a malformed id in a form field a field error', async () => {
    const own = (await t.call<{ permissions: { id: number }[] }>('GET', 'permission/list/', {}, { cookie })).body.data
      .permissions[0]?.id;
    const { response, body } = await t.call(
      'POST',
      `service/${own}/installapp/`,
      { subdomainID: 'abc', applicationID: '1' },
      { cookie },
    );
    expect(response.statusCode).toBe(400);
    expect(body.system.inputs).toContain('subdomainID');
  });
});

describe.each(DATABASE_KINDS)('unexpected errors on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(kind, { captureLogs: true });
    await buildAccount(t.database.db, { domainName: 'boom.test' });
  });
  afterAll(() => t.close());

  it('answers a 500 envelope with a generic message and the request id, and logs the error under that id', async () => {
    // A real failure deep inside: the table the brand lookup reads is gone.
    await t.database.db.schema.dropTable('brand_hosts').execute();
    const { response, body } = await t.call('GET', 'config/get/', { language: 'en' });
    expect(response.statusCode).toBe(500);
    expect(response.headers['x-dd']).toBe('1');
    expect(body.data).toBeNull();
    expect(body.system).toMatchObject({
      valid: false,
      statusCode: 500,
      errors: ['Internal error'],
      inputs: [],
      info: [],
    });
    expect(body.system.debug).toHaveLength(1);
    const requestId = /^request ([0-9a-f-]{36})$/.exec(body.system.debug[0] as string)?.[1];
    expect(requestId).toBeDefined();
    // Nothing internal leaves the server: no table, no SQL, no stack, no file path.
    expect(response.body).not.toMatch(/brand_hosts|select|sqlite|postgres|relation|at \w|\.ts|node_modules/i);

    const logged = t.logs.find((line) => line.reqId === requestId && line.level === 50);
    expect(logged?.msg).toBe('unexpected error');
    expect(JSON.stringify(logged?.err)).toMatch(/brand_hosts/);
  });
});
