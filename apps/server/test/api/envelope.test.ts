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

  it('answers a malformed id like a missing one', async () => {
    const { body } = await t.call('POST', 'permission/abc/', {}, { cookie });
    expect(body.system.inputs).toEqual(['id']);
  });
});
