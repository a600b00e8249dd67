import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FtpAccount } from '@panel247/contract/ftp';
import type { Redirection, Subdomain } from '@panel247/contract/hosting';
import type { Alias, Mailbox, MailListRow } from '@panel247/contract/mail';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { mailRepository } from '../../src/modules/mail/mail.repository.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

const DOMAIN = 'paging.test';
const NOW = 1_800_000_000;
/** 01 … 12: twelve rows, more than the spec's page of 10, sorted the same as text and as numbers. */
const twelve = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'));

/**
 * The lists that can grow (FTP accounts, sites, redirections, the mail view) paged and filtered on
 * the server, and the spec's calls without paging answering exactly what they always did.
 */
describe.each(DATABASE_KINDS)('paged lists on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let other: BuiltAccount;
  let cookie: string;
  let id: number;

  beforeAll(async () => {
    t = await buildTestApp(kind, { config: { 'hosting.root': mkdtempSync(path.join(tmpdir(), 'p247-paging-')) } });
    account = await buildAccount(t.database.db, { domainName: DOMAIN });
    other = await buildAccount(t.database.db, { domainName: 'other-paging.test' });
    id = account.resources[DOMAIN] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
    const db = t.database.db;
    // the first sites call adds the main site; the rows below are written straight to the tables
    await t.call('GET', `service/${id}/subdomain/list/`, {}, { cookie });
    const common = { service_id: id, created_at: NOW };
    await db
      .insertInto('ftp_accounts')
      .values(
        [...twelve.map((n) => `user${n}`), 'under_score', 'underxscore'].map((name) => ({
          ...common,
          login: `${name}@${DOMAIN}`,
          folder: name === 'under_score' ? 'web/per%cent' : `web/${name}`,
          password_hash: 'x',
          password_sealed: 'x',
          home: `/srv/${name}`,
          eliminable: 1,
        })),
      )
      .execute();
    const site = { ssl_active: 0, cert_pem: '', cert_chain_pem: '', key_sealed: '', eliminable: 1 };
    await db
      .insertInto('web_sites')
      .values([
        ...twelve.map((n) => ({ ...common, ...site, subdomain: `s${n}`, folder: `sites/s${n}` })),
        { ...common, ...site, subdomain: 'a-b', folder: 'dash_folder' },
        { ...common, ...site, subdomain: 'a', folder: 'plain' },
      ])
      .execute();
    const frame = { iframe_title: '', iframe_description: '', iframe_keywords: '' };
    await db
      .insertInto('web_redirections')
      .values([
        ...twelve.map((n) => ({
          ...common,
          ...frame,
          subdomain: '',
          path: `/r${n}`,
          url: `https://target.example/${n}`,
          type: n === '05' ? 'frame' : '301',
        })),
        { ...common, ...frame, subdomain: 'shop', path: '/', url: 'https://x.example/50%_off', type: '302' },
      ])
      .execute();
    // the repository writes the mail view's sort key with each row
    await mailRepository.insertMailboxes(
      db,
      [...twelve.map((n) => `box${n}`), 'info', 'in_fo'].map((local_part) => ({
        ...common,
        local_part,
        password_hash: 'x',
        quota_bytes: 1024,
      })),
    );
    await mailRepository.insertAliases(db, [
      { ...common, local_part: 'info', targets: 'box01@paging.test' },
      { ...common, local_part: '', targets: 'box02@paging.test' },
      { ...common, local_part: 'alias01', targets: 'box03@paging.test' },
    ]);
  });
  afterAll(() => t.close());

  const get = <T>(path: string, params: Record<string, string> = {}, c = cookie) =>
    t.call<T>('GET', path, params, { cookie: c });

  describe('FTP accounts', () => {
    type List = { ftps: FtpAccount[]; total?: number };
    const list = (params: Record<string, string> = {}) => get<List>(`service/${id}/ftp/list/`, params);

    it('answers the spec’s full list without paging, with no total', async () => {
      const { body } = await list();
      expect(Object.keys(body.data)).toEqual(['ftps']);
      expect(body.data.ftps).toHaveLength(14);
      expect(body.data.ftps[0]).toEqual({
        id: expect.any(Number),
        user: `under_score@${DOMAIN}`,
        directorio: 'web/per%cent',
        password: '',
        eliminable: true,
      });
    });

    it('pages by 10 with the total', async () => {
      const first = (await list({ page: '1' })).body.data;
      expect(first.total).toBe(14);
      expect(first.ftps.map((a) => a.user.split('@')[0])).toEqual([
        'under_score',
        'underxscore',
        ...twelve.slice(0, 8).map((n) => `user${n}`),
      ]);
      const second = (await list({ page: '2' })).body.data;
      expect(second.ftps.map((a) => a.user.split('@')[0])).toEqual(twelve.slice(8).map((n) => `user${n}`));
      expect(second.total).toBe(14);
      expect((await list({ page: '3' })).body.data).toEqual({ ftps: [], total: 14 });
      const last = (await list({ page: '1', order: 'desc', pageSize: '1' })).body.data;
      expect(last.ftps.map((a) => a.user)).toEqual([`user12@${DOMAIN}`]);
    });

    it('filters on the login and the folder, case-insensitive, % and _ as themselves', async () => {
      const users = async (filter: string) =>
        (await list({ page: '1', filter })).body.data.ftps.map((a) => a.user.split('@')[0]);
      expect(await users('USER1')).toEqual(['user10', 'user11', 'user12']);
      expect(await users('web/user07')).toEqual(['user07']);
      expect(await users('/WEB/USER07')).toEqual(['user07']);
      expect(await users('_')).toEqual(['under_score']);
      expect(await users('%')).toEqual(['under_score']);
      expect(await users('r%c')).toEqual(['under_score']);
      expect(await users('\\')).toEqual([]);
      const filtered = (await list({ filter: 'user' })).body.data;
      expect(filtered.total).toBe(12);
      expect(filtered.ftps).toHaveLength(12);
    });

    it('refuses a bad page, size or sort key', async () => {
      const { body } = await list({ page: '0', pageSize: '1000', sort: 'password' });
      expect(body.system.inputs).toEqual(['page', 'pageSize', 'sort']);
    });
  });

  describe('sites', () => {
    type List = { subdomains: Subdomain[]; total?: number };
    const list = (params: Record<string, string> = {}) => get<List>(`service/${id}/subdomain/list/`, params);
    const hosts = (sites: Subdomain[]) => sites.map((s) => s.subdominio || '@');

    it('answers the spec’s full list without paging, with no total', async () => {
      const { body } = await list();
      expect(Object.keys(body.data)).toEqual(['subdomains']);
      expect(body.data.subdomains).toHaveLength(15);
      expect(body.data.subdomains[0]).toMatchObject({ subdominio: '', referencePunycode: DOMAIN, directorio: '' });
    });

    it('pages by 10, the main domain first, then by host', async () => {
      const first = (await list({ page: '1' })).body.data;
      expect(first.total).toBe(15);
      expect(hosts(first.subdomains)).toEqual(['@', 'a-b', 'a', ...twelve.slice(0, 7).map((n) => `s${n}`)]);
      const second = (await list({ page: '2' })).body.data;
      expect(hosts(second.subdomains)).toEqual(twelve.slice(7).map((n) => `s${n}`));
    });

    it('filters on the host and the folder', async () => {
      const found = async (filter: string) => hosts((await list({ page: '1', filter })).body.data.subdomains);
      expect(await found('S1')).toEqual(['s10', 's11', 's12']);
      expect(await found(`s05.${DOMAIN}`)).toEqual(['s05']);
      expect(await found('/sites/s03')).toEqual(['s03']);
      expect(await found('_')).toEqual(['a-b']);
      expect(await found('%')).toEqual([]);
      expect((await list({ page: '1', filter: DOMAIN.toUpperCase() })).body.data.total).toBe(15);
    });
  });

  describe('redirections', () => {
    type List = { redirection: Redirection[]; total?: number };
    const list = (params: Record<string, string> = {}) => get<List>(`service/${id}/redirection/list/`, params);

    it('answers the spec’s full list without paging, with no total', async () => {
      const { body } = await list();
      expect(Object.keys(body.data)).toEqual(['redirection']);
      expect(body.data.redirection).toHaveLength(13);
      expect(body.data.redirection[0]).toMatchObject({ origin: `${DOMAIN}/r01`, recurso: 'r01', redirType: '301' });
    });

    it('pages by 10 by origin', async () => {
      const first = (await list({ page: '1' })).body.data;
      expect(first.total).toBe(13);
      expect(first.redirection.map((r) => r.origin)).toEqual(twelve.slice(0, 10).map((n) => `${DOMAIN}/r${n}`));
      const second = (await list({ page: '2' })).body.data;
      expect(second.redirection.map((r) => r.origin)).toEqual([`${DOMAIN}/r11`, `${DOMAIN}/r12`, `shop.${DOMAIN}`]);
    });

    it('filters on the origin, the destination and the type', async () => {
      const origins = async (filter: string) =>
        (await list({ page: '1', filter })).body.data.redirection.map((r) => r.origin);
      expect(await origins('SHOP.')).toEqual([`shop.${DOMAIN}`]);
      expect(await origins('target.example/07')).toEqual([`${DOMAIN}/r07`]);
      expect(await origins('frame')).toEqual([`${DOMAIN}/r05`]);
      expect(await origins('%_')).toEqual([`shop.${DOMAIN}`]);
      expect(await origins('r_1')).toEqual([]);
    });
  });

  describe('mail view', () => {
    type List = { mail: MailListRow[]; total: number };
    const list = (params: Record<string, string> = {}, c = cookie) => get<List>(`service/${id}/mail/list/`, params, c);
    const names = (rows: MailListRow[]) =>
      rows.map((row) =>
        row.type === 'account' ? `${row.correo.user}@` : row.alias.alias === '' ? '(domain)' : `${row.alias.alias}>`,
      );

    it('keeps the spec’s two list calls as they were', async () => {
      const boxes = (await get<{ correo: Mailbox[] }>(`service/${id}/correo/list/`)).body.data;
      expect(Object.keys(boxes)).toEqual(['correo']);
      expect(boxes.correo).toHaveLength(14);
      const aliases = (await get<{ alias: Alias[] }>(`service/${id}/alias/list/`)).body.data;
      expect(Object.keys(aliases)).toEqual(['alias']);
      expect(aliases.alias).toHaveLength(3);
    });

    it('pages accounts and aliases as one list sorted by address, the account first', async () => {
      const first = (await list({ page: '1' })).body.data;
      expect(first.total).toBe(17);
      expect(names(first.mail)).toEqual(['alias01>', ...twelve.slice(0, 9).map((n) => `box${n}@`)]);
      const second = (await list({ page: '2' })).body.data;
      expect(names(second.mail)).toEqual(['box10@', 'box11@', 'box12@', 'in_fo@', 'info@', 'info>', '(domain)']);
      expect(second.mail[0]).toMatchObject({ type: 'account', correo: { quota: 1024, usage: 0, eliminable: true } });
      expect(second.mail[5]).toMatchObject({
        type: 'alias',
        alias: { alias: 'info', referencePunycode: DOMAIN, name: 'box01@paging.test' },
      });
      expect((await list()).body.data.total).toBe(17);
    });

    it('keeps the unfiltered total with each create and delete, in the service’s counts row', async () => {
      const kept = () =>
        t.database.db
          .selectFrom('mail_counts')
          .select(['mailboxes', 'aliases'])
          .where('service_id', '=', id)
          .executeTakeFirstOrThrow()
          .then((row) => [Number(row.mailboxes), Number(row.aliases)]);
      expect(await kept()).toEqual([14, 3]);
      const box = await t.call<{ correo: Mailbox }>(
        'POST',
        `service/${id}/correo/create/`,
        { name: 'counted', password: 'counted-Password-1' },
        { cookie },
      );
      expect(box.body.system.valid).toBe(true);
      const alias = await t.call<{ alias: Alias }>(
        'POST',
        `service/${id}/alias/create/`,
        { name: 'counted-alias', target: ['box01@paging.test'] },
        { cookie },
      );
      expect(alias.body.system.valid).toBe(true);
      expect(await kept()).toEqual([15, 4]);
      expect((await list({ page: '1' })).body.data.total).toBe(19);
      // a refused create (the address is taken) changes nothing
      const again = await t.call(
        'POST',
        `service/${id}/correo/create/`,
        { name: 'counted', password: 'x-Password-12' },
        { cookie },
      );
      expect(again.body.system.valid).toBe(false);
      expect(await kept()).toEqual([15, 4]);
      await get(`service/${id}/correo/${box.body.data.correo.id}/delete/`);
      await get(`service/${id}/alias/${alias.body.data.alias.id}/delete/`);
      expect(await kept()).toEqual([14, 3]);
      expect((await list({ page: '1' })).body.data.total).toBe(17);
    });

    it('filters by type and on the address, % and _ as themselves', async () => {
      const found = async (params: Record<string, string>) =>
        names((await list({ page: '1', ...params })).body.data.mail);
      expect(await found({ type: 'alias' })).toEqual(['alias01>', 'info>', '(domain)']);
      expect(await found({ type: 'account', filter: 'INFO' })).toEqual(['info@']);
      expect(await found({ filter: 'info@paging' })).toEqual(['info@', 'info>']);
      expect(await found({ filter: '_' })).toEqual(['in_fo@']);
      expect(await found({ filter: '%' })).toEqual([]);
      // the alias of every address shows as the domain alone, and the filter sees it so
      expect(await found({ filter: `^${DOMAIN}`.slice(1), type: 'alias' })).toEqual(['alias01>', 'info>', '(domain)']);
      expect((await list({ type: 'both' })).body.system.inputs).toEqual(['type']);
    });

    it('merges accounts and aliases in the order of their lower-cased addresses, on every page and both ways', async () => {
      // another service: names in mixed case as rows written before the panel lower-cased them,
      // accounts and aliases interleaved, an account and an alias of the same address, and
      // names that differ by a character sorting before or after '@'
      const ORDER = 'order-paging.test';
      const owner = await buildAccount(t.database.db, { domainName: ORDER });
      const service = owner.resources[ORDER] as number;
      const c = await t.login(owner.domainName, owner.username, owner.password);
      const common = { service_id: service, created_at: NOW };
      const boxes = ['Bob', 'bob.x', 'carl', 'a', 'a-b', 'Zed', 'mid', 'ann'];
      const aliases = ['bob', 'Carl', 'b', 'a.b', 'zz', '', 'MID', 'Ann'];
      await mailRepository.insertMailboxes(
        t.database.db,
        boxes.map((local_part) => ({ ...common, local_part, password_hash: 'x', quota_bytes: 1024 })),
      );
      await mailRepository.insertAliases(
        t.database.db,
        aliases.map((local_part) => ({ ...common, local_part, targets: `a@${ORDER}` })),
      );
      const shown = (local: string) => (local === '' ? ORDER : `${local}@${ORDER}`).toLowerCase();
      // the order the list promises: the address in lower case (as bytes), then the account, then the id
      const expected = [
        ...boxes.map((local, i) => ({ key: shown(local), kind: 0, i, name: `${local}@` })),
        ...aliases.map((local, i) => ({
          key: shown(local),
          kind: 1,
          i,
          name: local === '' ? '(domain)' : `${local}>`,
        })),
      ]
        .sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : x.kind - y.kind || x.i - y.i))
        .map((row) => row.name);
      const pages = async (params: Record<string, string>) => {
        const all: string[] = [];
        for (let page = 1; ; page++) {
          const { body } = await get<List>(`service/${service}/mail/list/`, { ...params, page: String(page) }, c);
          expect(body.data.total).toBe(params.filter ? 3 : 16);
          all.push(...names(body.data.mail));
          if (body.data.mail.length < Number(params.pageSize ?? 10)) return all;
        }
      };
      expect(await pages({})).toEqual(expected);
      expect(await pages({ pageSize: '3' })).toEqual(expected);
      expect(await pages({ pageSize: '3', order: 'desc' })).toEqual([...expected].reverse());
      expect(await pages({ filter: 'BOB', pageSize: '2' })).toEqual(['bob.x@', 'Bob@', 'bob>']);
    });

    it('leaves out the kind a user may not see', async () => {
      const user = await buildUser(t.database.db, account, 'mail-alias-only', {
        [DOMAIN]: { ...allKeys('read'), servicemail_accounts: 'disabled' },
      });
      const c = await t.login(account.domainName, user.username, user.password);
      const { body } = await list({ page: '1' }, c);
      expect(body.data.total).toBe(3);
      expect(names(body.data.mail)).toEqual(['alias01>', 'info>', '(domain)']);
    });
  });

  describe('authorization', () => {
    const paths = (service: number) => [
      `service/${service}/ftp/list/`,
      `service/${service}/subdomain/list/`,
      `service/${service}/redirection/list/`,
      `service/${service}/mail/list/`,
    ];

    it('refuses every paged list without a session', async () => {
      for (const path of paths(id)) {
        const { response } = await t.call('GET', path, { page: '1' });
        expect(response.statusCode, path).toBe(401);
      }
    });

    it('answers another account’s service as not found', async () => {
      for (const path of paths(other.resources['other-paging.test'] as number)) {
        const { response } = await get(path, { page: '1' });
        expect(response.statusCode, path).toBe(404);
      }
    });

    it('answers not found to a user without the list’s right', async () => {
      const user = await buildUser(t.database.db, account, 'no-lists', {
        [DOMAIN]: {
          ...allKeys('read'),
          service_ftp: 'disabled',
          service_subdomains: 'disabled',
          service_redirects: 'disabled',
          servicemail: 'disabled',
        },
      });
      const c = await t.login(account.domainName, user.username, user.password);
      for (const path of paths(id)) {
        const { response } = await get(path, { page: '1', filter: 'a' }, c);
        expect(response.statusCode, path).toBe(404);
      }
    });
  });
});
