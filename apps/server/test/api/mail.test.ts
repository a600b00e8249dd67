import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Alias, Mailbox } from '@panel247/contract/mail';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminService, allKeys } from '../../src/modules/admin/admin.service.ts';
import { LocalEventBus } from '../../src/modules/realtime/event-bus.ts';
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
    t = await buildTestApp(kind, {
      config: {
        'mail.maxQuotaMb': 2048,
        'mail.webmailKey': 'webmail-shared-key-0123456789abcdef',
        // saving a mailbox's rules writes its Sieve script under the mail root
        'mail.root': mkdtempSync(path.join(tmpdir(), 'p247-mailapi-')),
      },
    });
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
  const passwordHash = async (boxId: number) =>
    (await t.database.db.selectFrom('mailboxes').select('password_hash').where('id', '=', boxId).executeTakeFirst())
      ?.password_hash;
  const aliasTargets = async (aliasId: number) =>
    (await t.database.db.selectFrom('mail_aliases').select('targets').where('id', '=', aliasId).executeTakeFirst())
      ?.targets;

  it('takes an empty quota as left out: the plan’s default, never 0', async () => {
    const created = await t.call<{ correo: Mailbox }>(
      'POST',
      `service/${id}/correo/create/`,
      { name: 'cuota-vacia', password: 'a good password', quota: '' },
      { cookie },
    );
    expect(created.body.system.errors).toEqual([]);
    expect(created.body.data.correo.quota).toBe(1024 * 1024 * 1024);
    await t.call('POST', `service/${id}/correo/${created.body.data.correo.id}/delete/`, {}, { cookie });
  });

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

  it('gives the brand’s fixed SSL host in the SSL column and the prefixed domain without SSL', async () => {
    const admin = new AdminService(t.database.db, new LocalEventBus(), () => Math.floor(Date.now() / 1000));
    await admin.ensureBrand({ slug: 'con-ssl', company: 'SSL Hosting', sslHost: 'secure.proveedor.example' });
    const branded = await buildAccount(t.database.db, {
      brandSlug: 'con-ssl',
      domainName: 'marca-ssl.test',
      resources: { 'marca-ssl.test': { hasMail: true, hasService: true } },
    });
    const c = await t.login(branded.domainName, branded.username, branded.password);
    const serviceId = branded.resources['marca-ssl.test'] as number;
    const connection = await t.call('GET', `service/${serviceId}/correo/connection/`, {}, { cookie: c });
    expect(connection.body.data).toEqual({
      plain: {
        imap: 'imap.marca-ssl.test',
        smtp: 'smtp.marca-ssl.test',
        ftp: 'ftp.marca-ssl.test',
        bbdd: 'bbdd.marca-ssl.test',
      },
      ssl: {
        imap: 'secure.proveedor.example',
        smtp: 'secure.proveedor.example',
        ftp: 'secure.proveedor.example',
        bbdd: 'secure.proveedor.example',
      },
      ports: { imap: { plain: 143, ssl: 993 }, smtp: { plain: 587, ssl: 465 } },
    });
    // a brand without one gives the prefixed names in both columns
    const plain = await t.call<{ plain: object; ssl: object }>(
      'GET',
      `service/${id}/correo/connection/`,
      {},
      { cookie },
    );
    expect(plain.body.data.ssl).toEqual(plain.body.data.plain);
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
    // (node '': the service's mail is on the unnamed machine, whose daemons ask for '')
    expect(view).toEqual([{ source: '@buzon.test', destination: 'tres@example.org', node: '' }]);
    // Each mailbox maps to itself, so Postfix finds it before the catch-all (migration 0009).
    const box = await t.call<{ correo: Mailbox }>(
      'POST',
      `service/${id}/correo/create/`,
      { name: 'propio', password: 'a good password' },
      { cookie },
    );
    const both = await t.database.db
      .selectFrom('mail_aliases_view' as never)
      .selectAll()
      .orderBy('source' as never)
      .execute();
    expect(both).toEqual([
      { source: '@buzon.test', destination: 'tres@example.org', node: '' },
      { source: 'propio@buzon.test', destination: 'propio@buzon.test', node: '' },
    ]);
    await t.call('POST', `service/${id}/correo/${box.body.data.correo.id}/delete/`, {}, { cookie });
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
    [{ name: 'b\r\nBcc: x', target: ['uno@example.com'] }, ['name']],
    [{ name: "o'brien", target: ['uno@example.com'] }, ['name']],
    [{ name: '"quoted"', target: ['uno@example.com'] }, ['name']],
    [{ name: 'per%cent', target: ['uno@example.com'] }, ['name']],
    [{ name: 'x'.repeat(300), target: ['uno@example.com'] }, ['name']],
    [{ name: 'a', target: ['uno@example.com\n'] }, ['target']],
    [{ name: 'a', target: ["o'brien@example.com,uno@example.com%example.org"] }, ['target']],
    // too many targets, or too long together for the stored list (PostgreSQL answered 500)
    [{ name: 'a', target: Array.from({ length: 51 }, (_, i) => `t${i}@example.com`) }, ['target']],
    [{ name: 'a', target: Array.from({ length: 20 }, (_, i) => `${'x'.repeat(230)}${i}@example.com`) }, ['target']],
    [
      { name: 'a', target: Array.from({ length: 20 }, (_, i) => `${'x'.repeat(230)}${i}@example.com`).join(',') },
      ['target'],
    ],
  ])('refuses alias %o with field errors and writes nothing', async (params, inputs) => {
    const before = await counts();
    const { body } = await t.call('POST', `service/${id}/alias/create/`, params as Record<string, string | string[]>, {
      cookie,
    });
    expect(body.system.inputs).toEqual(inputs);
    expect(await counts()).toBe(before);
  });

  it('refuses hostile targets on save with a field error and keeps the old ones', async () => {
    const created = await t.call<{ alias: Alias }>(
      'POST',
      `service/${id}/alias/create/`,
      { name: 'guardado', target: ['bien@example.com'] },
      { cookie },
    );
    const aliasId = created.body.data.alias.id;
    for (const target of [
      ['mal@example.com\r\nBcc: x@example.com'],
      ['"q"@example.com'],
      ['per%cent@example.com'],
      [`${'x'.repeat(300)}@example.com`],
      Array.from({ length: 51 }, (_, i) => `t${i}@example.com`),
      Array.from({ length: 20 }, (_, i) => `${'x'.repeat(230)}${i}@example.com`),
      ['', ' '],
    ]) {
      const { response, body } = await t.call('POST', `service/${id}/alias/${aliasId}/save/`, { target }, { cookie });
      expect(response.statusCode).toBe(400);
      expect(body.system.inputs).toEqual(['target']);
      expect(await aliasTargets(aliasId)).toBe('bien@example.com');
    }
    const capped = await t.call(
      'POST',
      `service/${id}/alias/${aliasId}/save/`,
      { target: Array.from({ length: 51 }, (_, i) => `t${i}@example.com`) },
      { cookie },
    );
    expect(capped.body.system.errors).toEqual(['Como máximo 50 destinos por alias']);
    // exactly at the caps is fine
    const full = Array.from(
      { length: 16 },
      (_, i) => `${'y'.repeat(i === 0 ? 240 : 239)}${String(i).padStart(3, '0')}@ex.com`,
    );
    expect(full.join(',').length).toBe(4000);
    const saved = await t.call<{ alias: Alias }>(
      'POST',
      `service/${id}/alias/${aliasId}/save/`,
      { target: full },
      { cookie },
    );
    expect(saved.body.system.errors).toEqual([]);
    expect(saved.body.data.alias.name).toBe(full.join(','));
    await t.call('POST', `service/${id}/alias/${aliasId}/delete/`, {}, { cookie });
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

  const LEVELS = ['disabled', 'read', 'write'] as const;
  type Level = (typeof LEVELS)[number];
  /** What a level answers: reads need it visible, changes need write; invisible is not found. */
  const readCode = (level: Level) => (level === 'disabled' ? 404 : 200);
  const writeCode = (level: Level) => ({ disabled: 404, read: 403, write: 200 })[level];
  const combos = LEVELS.flatMap((accounts) => LEVELS.map((alias) => [accounts, alias] as const));

  it.each(combos)(
    'servicemail_accounts %s × servicemail_alias %s: every call answers by its own right',
    async (accounts, aliasLevel) => {
      const tag = `${accounts.slice(0, 2)}${aliasLevel.slice(0, 2)}`;
      // the admin makes what the user then works on
      const box = (
        await t.call<{ correo: Mailbox }>(
          'POST',
          `service/${id}/correo/create/`,
          { name: `m-${tag}`, password: 'a good password' },
          { cookie },
        )
      ).body.data.correo;
      const alias = (
        await t.call<{ alias: Alias }>(
          'POST',
          `service/${id}/alias/create/`,
          { name: `a-${tag}`, target: ['x@example.com'] },
          { cookie },
        )
      ).body.data.alias;
      const hashBefore = await passwordHash(box.id);
      const user = await buildUser(t.database.db, account, `m${tag}`, {
        'buzon.test': {
          ...allKeys('disabled'),
          servicemail: 'read',
          servicemail_accounts: accounts,
          servicemail_alias: aliasLevel,
        },
      });
      const c = await t.login(account.domainName, user.username, user.password);
      const as = { cookie: c };
      const code = async (method: 'GET' | 'POST', path: string, params: Record<string, string | string[]> = {}) =>
        (await t.call(method, `service/${id}/${path}`, params, as)).response.statusCode;

      // mail accounts
      const list = await t.call<{ correo: Mailbox[] }>('GET', `service/${id}/correo/list/`, {}, as);
      expect(list.body.data.correo.some((m) => m.id === box.id)).toBe(accounts !== 'disabled');
      expect(await code('GET', `correo/${box.id}/`)).toBe(readCode(accounts));
      // WebMail reads, sends and deletes as the mailbox: shown to readers, signed on for writers only.
      expect(await code('GET', `correo/${box.id}/login/`)).toBe(writeCode(accounts));
      expect(await code('POST', 'correo/create/', { name: `n-${tag}`, password: 'a good password' })).toBe(
        writeCode(accounts),
      );
      expect(await code('POST', `correo/${box.id}/changepassword/`, { password: 'a new password' })).toBe(
        writeCode(accounts),
      );
      expect((await passwordHash(box.id)) === hashBefore).toBe(accounts !== 'write');
      // the mailbox's settings (autoresponder, forwarding, quota) follow the accounts right
      expect(await code('GET', `correo/${box.id}/rules/`)).toBe(readCode(accounts));
      expect(await code('POST', `correo/${box.id}/rules/save/`, { forward: ['f@example.com'] })).toBe(
        writeCode(accounts),
      );
      expect(await code('POST', `correo/${box.id}/quota/`, { quota: '10' } as Record<string, string>)).toBe(
        writeCode(accounts),
      );
      const settings = await t.database.db
        .selectFrom('mailbox_rules')
        .select('forward_targets')
        .where('mailbox_id', '=', box.id)
        .executeTakeFirst();
      expect(settings?.forward_targets).toBe(accounts === 'write' ? 'f@example.com' : undefined);
      expect(await code('POST', `correo/${box.id}/delete/`)).toBe(writeCode(accounts));
      expect(Boolean(await passwordHash(box.id))).toBe(accounts !== 'write');

      // aliases
      const aliases = await t.call<{ alias: Alias[] }>('GET', `service/${id}/alias/list/`, {}, as);
      expect(aliases.body.data.alias.some((a) => a.id === alias.id)).toBe(aliasLevel !== 'disabled');
      expect(await code('GET', `alias/${alias.id}/`)).toBe(readCode(aliasLevel));
      expect(await code('POST', 'alias/create/', { name: `b-${tag}`, target: ['y@example.com'] })).toBe(
        writeCode(aliasLevel),
      );
      expect(await code('POST', `alias/${alias.id}/save/`, { target: ['z@example.com'] })).toBe(writeCode(aliasLevel));
      expect(await aliasTargets(alias.id)).toBe(aliasLevel === 'write' ? 'z@example.com' : 'x@example.com');
      expect(await code('POST', `alias/${alias.id}/delete/`)).toBe(writeCode(aliasLevel));
      expect(await aliasTargets(alias.id)).toBe(aliasLevel === 'write' ? undefined : 'x@example.com');

      // connection data needs the mail area only
      expect(await code('GET', 'correo/connection/')).toBe(200);
    },
  );

  it('refuses WebMail without the mail area, even with the accounts right', async () => {
    const box = (
      await t.call<{ correo: Mailbox }>(
        'POST',
        `service/${id}/correo/create/`,
        { name: 'webmail-gate', password: 'a good password' },
        { cookie },
      )
    ).body.data.correo;
    const user = await buildUser(t.database.db, account, 'webmail-no-area', {
      'buzon.test': { ...allKeys('disabled'), servicemail: 'disabled', servicemail_accounts: 'write' },
    });
    const c = await t.login(account.domainName, user.username, user.password);
    const login = await t.call('GET', `service/${id}/correo/${box.id}/login/`, {}, { cookie: c });
    expect(login.response.statusCode).toBe(404);
    expect(JSON.stringify(login.body.data)).not.toContain('token');
  });

  it('answers another account’s mailbox and alias ids through the own service id as not found, changing nothing', async () => {
    const otherId = other.resources['otro-buzon.test'] as number;
    const otherCookie = await t.login(other.domainName, other.username, other.password);
    const theirBox = (
      await t.call<{ correo: Mailbox }>(
        'POST',
        `service/${otherId}/correo/create/`,
        { name: 'ajeno', password: 'their own password' },
        { cookie: otherCookie },
      )
    ).body.data.correo;
    const theirAlias = (
      await t.call<{ alias: Alias }>(
        'POST',
        `service/${otherId}/alias/create/`,
        { name: 'ajeno-alias', target: ['them@example.com'] },
        { cookie: otherCookie },
      )
    ).body.data.alias;
    const hashBefore = await passwordHash(theirBox.id);
    const tokensBefore = (await t.database.db.selectFrom('signon_tokens').select('token_hash').execute()).length;
    const calls: [string, Record<string, string | string[]>][] = [
      [`correo/${theirBox.id}/`, {}],
      [`correo/${theirBox.id}/changepassword/`, { password: 'stolen password' }],
      [`correo/${theirBox.id}/login/`, {}],
      [`correo/${theirBox.id}/delete/`, {}],
      [`alias/${theirAlias.id}/`, {}],
      [`alias/${theirAlias.id}/save/`, { target: ['thief@example.com'] }],
      [`alias/${theirAlias.id}/delete/`, {}],
    ];
    for (const [path, params] of calls) {
      const answer = await t.call('POST', `service/${id}/${path}`, params, { cookie });
      expect(answer.response.statusCode, path).toBe(404);
    }
    expect(await passwordHash(theirBox.id)).toBe(hashBefore);
    expect(await aliasTargets(theirAlias.id)).toBe('them@example.com');
    expect((await t.database.db.selectFrom('signon_tokens').select('token_hash').execute()).length).toBe(tokensBefore);
  });
});
