import type { Alias, Mailbox } from '@panel247/contract/mail';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

describe.each(DATABASE_KINDS)('mail API on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let other: BuiltAccount;
  let cookie: string;
  let id: number;

  beforeAll(async () => {
    t = await buildTestApp(kind, { config: { 'mail.maxQuotaMb': 2048 } });
    account = await buildAccount(t.database.db, {
      domainName: 'buzon.test',
      resources: { 'buzon.test': { hasMail: true }, 'sin-correo.test': { hasDomain: true } },
    });
    other = await buildAccount(t.database.db, { domainName: 'otro-buzon.test' });
    id = account.resources['buzon.test'] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(() => t.close());

  const counts = async () => {
    const boxes = await t.database.db.selectFrom('mailboxes').select('id').execute();
    const aliases = await t.database.db.selectFrom('mail_aliases').select('id').execute();
    return boxes.length + aliases.length;
  };

  it('creates, lists, changes and deletes a mailbox; passwords are stored only as a Dovecot hash', async () => {
    const created = await t.call<{ correo: Mailbox }>(
      'POST',
      `service/${id}/correo/create/`,
      { name: 'Info', password: 'a good password', quota: '512' },
      { cookie },
    );
    expect(created.body.data.correo).toMatchObject({
      user: 'info',
      quota: 512 * 1024 * 1024,
      usage: 0,
      eliminable: true,
    });
    const row = await t.database.db.selectFrom('mailboxes').select('password_hash').executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\{ARGON2ID\}\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const list = await t.call<{ correo: Mailbox[] }>('GET', `service/${id}/correo/list/`, {}, { cookie });
    expect(list.body.data.correo.map((m) => m.user)).toEqual(['info']);
    const boxId = created.body.data.correo.id;
    const changed = await t.call(
      'POST',
      `service/${id}/correo/${boxId}/changepassword/`,
      { password: 'another password' },
      { cookie },
    );
    expect(changed.body.system.info).toEqual(['Contraseña cambiada']);
    const connection = await t.call('GET', `service/${id}/correo/connection/`, {}, { cookie });
    expect(connection.body.data).toMatchObject({
      plain: { imap: 'imap.buzon.test', smtp: 'smtp.buzon.test', ftp: 'ftp.buzon.test', bbdd: 'bbdd.buzon.test' },
    });
    const removed = await t.call('POST', `service/${id}/correo/${boxId}/delete/`, {}, { cookie });
    expect(removed.body.system.info).toEqual(['Cuenta de correo eliminada']);
  });

  it('creates and edits an alias, dropping empty targets; an empty name takes the whole domain', async () => {
    const created = await t.call<{ alias: Alias }>(
      'POST',
      `service/${id}/alias/create/`,
      { name: '', target: ['uno@example.com', '', ' dos@[192.0.2.1] '] },
      { cookie },
    );
    expect(created.body.data.alias).toMatchObject({
      alias: '',
      referencePunycode: 'buzon.test',
      name: 'uno@example.com,dos@[192.0.2.1]',
    });
    const saved = await t.call<{ alias: Alias }>(
      'POST',
      `service/${id}/alias/${created.body.data.alias.id}/save/`,
      { target: 'tres@example.org' },
      { cookie },
    );
    expect(saved.body.data.alias.name).toBe('tres@example.org');
    const view = await t.database.db
      .selectFrom('mail_aliases_view' as never)
      .selectAll()
      .execute();
    expect(view).toEqual([{ source: '@buzon.test', destination: 'tres@example.org' }]);
    await t.call('POST', `service/${id}/alias/${created.body.data.alias.id}/delete/`, {}, { cookie });
  });

  it.each([
    [{ name: 'in\r\nfo', password: 'a good password' }, ['name']],
    [{ name: 'info\n', password: 'a good password' }, ['name']],
    [{ name: "o'brien", password: 'a good password' }, ['name']],
    [{ name: 'per%cent', password: 'a good password' }, ['name']],
    [{ name: 'x'.repeat(300), password: 'a good password' }, ['name']],
    [{ name: 'ok', password: 'short' }, ['password']],
    [{ name: 'ok', password: 'line\nbreak password' }, ['password']],
    [{ name: 'ok', password: 'a good password', quota: '99999' }, ['quota']],
    [{ name: '', password: '' }, ['name', 'password']],
  ])('refuses mailbox %o with field errors and writes nothing', async (params, inputs) => {
    const before = await counts();
    const { body } = await t.call('POST', `service/${id}/correo/create/`, params as Record<string, string>, { cookie });
    expect(body.system.inputs).toEqual(inputs);
    expect(await counts()).toBe(before);
  });

  it.each([
    [{ name: 'a', target: ['uno@example.com\r\nBcc: x@example.com'] }, ['target']],
    [{ name: 'a', target: ['"quoted"@example.com'] }, ['target']],
    [{ name: 'a', target: ['per%cent@example.com'] }, ['target']],
    [{ name: 'a', target: [`${'x'.repeat(300)}@example.com`] }, ['target']],
    [{ name: 'a', target: ['nobody@localhost'] }, ['target']],
    [{ name: 'a', target: ['', ' '] }, ['target']],
    [{ name: 'b\r', target: ['uno@example.com'] }, ['name']],
  ])('refuses alias %o with field errors and writes nothing', async (params, inputs) => {
    const before = await counts();
    const { body } = await t.call('POST', `service/${id}/alias/create/`, params as Record<string, string | string[]>, {
      cookie,
    });
    expect(body.system.inputs).toEqual(inputs);
    expect(await counts()).toBe(before);
  });

  it('refuses a duplicate address, whether mailbox or alias', async () => {
    await t.call('POST', `service/${id}/correo/create/`, { name: 'dup', password: 'a good password' }, { cookie });
    const again = await t.call(
      'POST',
      `service/${id}/alias/create/`,
      { name: 'dup', target: ['x@example.com'] },
      { cookie },
    );
    expect(again.body.system).toMatchObject({ inputs: ['name'], errors: ['Esa dirección ya existe'] });
  });

  it('answers another account’s service, or one without mail, as not found', async () => {
    for (const foreign of [other.resources['otro-buzon.test'], account.resources['sin-correo.test']]) {
      expect((await t.call('GET', `service/${foreign}/correo/list/`, {}, { cookie })).response.statusCode).toBe(404);
      expect(
        (
          await t.call(
            'POST',
            `service/${foreign}/correo/create/`,
            { name: 'x', password: 'a good password' },
            { cookie },
          )
        ).response.statusCode,
      ).toBe(404);
    }
  });

  it.each(['disabled', 'read', 'write'] as const)('servicemail_accounts %s / servicemail_alias read', async (level) => {
    const user = await buildUser(t.database.db, account, `mail-${level}`, {
      'buzon.test': {
        ...allKeys('disabled'),
        servicemail: 'read',
        servicemail_accounts: level,
        servicemail_alias: 'read',
      },
    });
    const c = await t.login(account.domainName, user.username, user.password);
    const list = await t.call<{ correo: Mailbox[] }>('GET', `service/${id}/correo/list/`, {}, { cookie: c });
    const create = await t.call(
      'POST',
      `service/${id}/correo/create/`,
      { name: `p${level}`, password: 'a good password' },
      { cookie: c },
    );
    const alias = await t.call(
      'POST',
      `service/${id}/alias/create/`,
      { name: `q${level}`, target: ['x@example.com'] },
      { cookie: c },
    );
    expect(alias.response.statusCode).toBe(403);
    if (level === 'disabled') {
      expect(list.body.data.correo).toEqual([]);
      expect(create.response.statusCode).toBe(404);
    } else if (level === 'read') {
      expect(list.body.data.correo.length).toBeGreaterThan(0);
      expect(create.response.statusCode).toBe(403);
    } else {
      expect(create.response.statusCode).toBe(200);
    }
  });
});
