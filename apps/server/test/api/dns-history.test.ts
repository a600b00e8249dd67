import type { DnsListData, DnsOneData } from '@panel247/contract/dns';
import type { DnsChangeData, DnsChangeMadeData, DnsHistoryData } from '@panel247/contract/dns-history';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { ScriptedDnsDriver } from '../support/scripted-dns-driver.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

describe.each(DATABASE_KINDS)('DNS zone history API on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let other: BuiltAccount;
  let cookie: string;
  let serviceId: number;

  beforeAll(async () => {
    t = await buildTestApp(kind, { config: { 'dns.nameservers': ['ns1.provider.test', 'ns2.provider.test'] } });
    account = await buildAccount(t.database.db, {
      domainName: 'history.test',
      resources: { 'history.test': { hasDomain: true, hasService: true } },
    });
    other = await buildAccount(t.database.db, { domainName: 'other-history.test' });
    serviceId = account.resources['history.test'] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(() => t.close());

  const path = (rest: string, service = serviceId) => `service/${service}/dns/${rest}`;
  const list = async () =>
    (await t.call<DnsListData>('GET', path('list/'), {}, { cookie })).body.data.dnss
      .map((r) => `${r.zona || '@'} ${r.type} ${r.ttl} ${r.priority} ${r.value}`)
      .sort();
  const create = async (params: Record<string, string>) =>
    (await t.call<DnsOneData>('POST', path('create/'), { ttl: '0', priority: '0', ...params }, { cookie })).body.data
      .dns;
  const history = async (page = 1, c = cookie) =>
    (await t.call<DnsHistoryData>('GET', path('history/'), { page: String(page) }, { cookie: c })).body.data;
  const latest = async () => (await history()).changes[0];
  const detail = async (id: number) =>
    (await t.call<DnsChangeData>('GET', path(`history/${id}/`), { pageSize: '100' }, { cookie })).body.data;
  const exportAt = (id: number, c = cookie, service = serviceId) =>
    t.app.inject({
      method: 'GET',
      url: `/p247/${path(`history/${id}/export/`, service)}`,
      headers: { cookie: c, 'x-dd-request': '1' },
    });
  const act = (action: 'revert' | 'restore', id: number, params: Record<string, string> = {}, c = cookie) =>
    t.call<DnsChangeMadeData>('POST', path(`history/${id}/${action}/`), params, { cookie: c });

  it('keeps the zone’s first records as its first change set, by the panel', async () => {
    await list();
    const { changes, total } = await history();
    expect(total).toBe(1);
    expect(changes[0]).toMatchObject({ kind: 'zone', who: '', refersTo: null, rrsets: 8 });
    const { rrsets } = await detail(changes[0]?.id as number);
    expect(rrsets.find((set) => set.zona === 'www' && set.type === 'CNAME')).toEqual({
      zona: 'www',
      type: 'CNAME',
      before: [],
      after: [{ ttl: 0, priority: 0, value: 'history.test', dynamicValue: '', eliminable: true }],
    });
    const refused = await act('revert', changes[0]?.id as number, { language: 'en' });
    expect(refused.response.statusCode).toBe(409);
    expect(refused.body.system.errors).toEqual([
      'The zone’s first records cannot be reverted: use “Restore defaults” or “Delete all records” instead.',
    ]);
  });

  it('records create, edit and delete: who, when and the touched RRset before and after only', async () => {
    await create({ type: 'A', zona: 'web', value: '203.0.113.1' });
    const created = await latest();
    expect(created).toMatchObject({ kind: 'create', who: account.username, rrsets: 1 });
    expect(created?.at).toBeGreaterThan(1_700_000_000);
    const second = await create({ type: 'A', zona: 'web', value: '203.0.113.2' });
    expect((await detail((await latest())?.id as number)).rrsets).toEqual([
      {
        zona: 'web',
        type: 'A',
        before: [{ ttl: 0, priority: 0, value: '203.0.113.1', dynamicValue: '', eliminable: true }],
        after: [
          { ttl: 0, priority: 0, value: '203.0.113.1', dynamicValue: '', eliminable: true },
          { ttl: 0, priority: 0, value: '203.0.113.2', dynamicValue: '', eliminable: true },
        ],
      },
    ]);
    await t.call('POST', path(`${second.id}/save/`), { value: '203.0.113.3', ttl: '600', priority: '0' }, { cookie });
    expect(await latest()).toMatchObject({ kind: 'edit', rrsets: 1 });
    await t.call('POST', path(`${second.id}/delete/`), {}, { cookie });
    const deleted = await detail((await latest())?.id as number);
    expect(deleted.change.kind).toBe('delete');
    expect(deleted.rrsets[0]?.after.map((r) => r.value)).toEqual(['203.0.113.1']);
  });

  it('records an import, restore defaults and delete all, each RRset that changed once', async () => {
    const text = '$ORIGIN history.test.\nshop 600 IN A 198.51.100.5\nweb 600 IN A 198.51.100.6\n';
    await t.call('POST', path('import/'), { text, mode: 'merge' }, { cookie });
    const imported = await detail((await latest())?.id as number);
    expect(imported.change.kind).toBe('import');
    expect(imported.rrsets.map((set) => `${set.zona} ${set.type}`)).toEqual(['shop A', 'web A']);
    await t.call('POST', path('delete/'), {}, { cookie });
    const emptied = await detail((await latest())?.id as number);
    expect(emptied.change.kind).toBe('delete_all');
    expect(emptied.rrsets.every((set) => set.type !== 'NS' && set.after.length === 0)).toBe(true);
    await t.call('POST', path('restore/'), {}, { cookie });
    const restored = await detail((await latest())?.id as number);
    expect(restored.change.kind).toBe('defaults');
    expect(restored.rrsets.map((set) => `${set.zona} ${set.type}`)).not.toContain('@ NS');
    // Nothing changed: no change set.
    const before = (await history()).total;
    await t.call('POST', path('restore/'), {}, { cookie });
    expect((await history()).total).toBe(before);
  });

  it('pages the history on the server, newest first, 10 a page', async () => {
    for (let i = 0; i < 6; i++) await create({ type: 'TXT', zona: `page${i}`, value: `v${i}` });
    const first = await history(1);
    const second = await history(2);
    expect(first.changes).toHaveLength(10);
    expect(first.total).toBeGreaterThan(10);
    expect(second.changes.length).toBe(Math.min(10, first.total - 10));
    const ids = [...first.changes, ...second.changes].map((c) => c.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('reverts a change as a new change set, the RRset back exactly', async () => {
    const made = await create({ type: 'MX', zona: 'rev', value: 'mx1.example.org', priority: '10' });
    const beforeEdit = await list();
    await t.call(
      'POST',
      path(`${made.id}/save/`),
      { value: 'mx2.example.org', ttl: '1800', priority: '5' },
      { cookie },
    );
    const edit = await latest();
    const { response, body } = await act('revert', edit?.id as number);
    expect(response.statusCode).toBe(200);
    expect(body.system.info).toEqual(['Cambio revertido']);
    expect(body.data.change).toMatchObject({ kind: 'revert', refersTo: edit?.id, who: account.username, rrsets: 1 });
    expect(await list()).toEqual(beforeEdit);
    // Reverting the revert redoes the edit.
    await act('revert', body.data.change?.id as number);
    expect(await list()).toContain('rev MX 1800 5 mx2.example.org');
  });

  it('refuses a revert a later change conflicts with, saying which RRset and which change (translated)', async () => {
    await create({ type: 'TXT', zona: 'clash', value: 'one' });
    const first = await latest();
    await create({ type: 'TXT', zona: 'clash', value: 'two' });
    const later = await latest();
    const before = await list();
    const refused = await act('revert', first?.id as number);
    expect(refused.response.statusCode).toBe(409);
    expect(refused.body.system.errors).toEqual([
      `No se puede revertir: clash.history.test. TXT ha vuelto a cambiar después (cambio ${later?.id}). ` +
        'Revierte antes ese cambio o restaura la zona tal como estaba.',
    ]);
    const english = await act('revert', first?.id as number, { language: 'en' });
    expect(english.body.system.errors[0]).toContain(`clash.history.test. TXT was changed again afterwards`);
    expect(await list()).toEqual(before);
    // Reverted newest first, both go.
    await act('revert', later?.id as number);
    await act('revert', first?.id as number);
    expect((await list()).some((r) => r.startsWith('clash '))).toBe(false);
  });

  it('refuses a revert that would put a CNAME beside records added since', async () => {
    await create({ type: 'CNAME', zona: 'alias', value: 'example.org' });
    const cname = await latest();
    await act('revert', cname?.id as number);
    await create({ type: 'A', zona: 'alias', value: '192.0.2.99' });
    const revert = (await history()).changes[1];
    const refused = await act('revert', revert?.id as number, { language: 'en' });
    expect(refused.response.statusCode).toBe(409);
    expect(refused.body.system.errors).toEqual([
      'Cannot apply: alias.history.test. would have a CNAME beside other records, which were added later.',
    ]);
    expect(await list()).toContain('alias A 0 0 192.0.2.99');
  });

  it('restores the zone as it was after a change set, as a new one, and exports any point in BIND', async () => {
    await create({ type: 'A', zona: 'point', value: '198.51.100.50' });
    const point = await latest();
    const then = await list();
    await t.call('POST', path('delete/'), {}, { cookie });
    await create({ type: 'TXT', zona: 'after', value: 'later' });
    const exported = await exportAt(point?.id as number);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-disposition']).toContain(`history.test-${point?.id}.zone`);
    expect(exported.body).toMatch(/^point\t3600\tIN\tA\t198\.51\.100\.50$/m);
    expect(exported.body).toMatch(/^www\t3600\tIN\tCNAME\thistory\.test\.$/m);
    expect(exported.body).not.toContain('later');
    const { body } = await act('restore', point?.id as number);
    expect(body.system.info).toEqual(['Zona restaurada tal como estaba']);
    expect(body.data.change).toMatchObject({ kind: 'restore_at', refersTo: point?.id });
    expect(await list()).toEqual(then);
    const again = await act('restore', point?.id as number);
    expect(again.body.data.change).toBeNull();
    expect(again.body.system.info).toEqual(['La zona ya está así: no se ha cambiado nada']);
  });

  describe('permissions', () => {
    it('read sees the history and exports; only the DNS-zone action right reverts and restores', async () => {
      await create({ type: 'TXT', zona: 'perm', value: 'x' });
      const change = await latest();
      const id = change?.id as number;
      const level = async (name: string, right: 'disabled' | 'read' | 'write') => {
        const user = await buildUser(t.database.db, account, `hist-${name}`, {
          'history.test': { ...allKeys('read'), service_dnszone: right },
        });
        return t.login(account.domainName, user.username, user.password);
      };
      const seen = async (c: string) => ({
        history: (await t.call('GET', path('history/'), {}, { cookie: c })).response.statusCode,
        detail: (await t.call('GET', path(`history/${id}/`), {}, { cookie: c })).response.statusCode,
        export: (await exportAt(id, c)).statusCode,
        revert: (await act('revert', id, {}, c)).response.statusCode,
      });
      const before = await list();
      expect(await seen(await level('none', 'disabled'))).toEqual({
        history: 404,
        detail: 404,
        export: 404,
        revert: 404,
      });
      expect(await seen(await level('read', 'read'))).toEqual({ history: 200, detail: 200, export: 200, revert: 403 });
      expect(await list()).toEqual(before);
      const writer = await level('write', 'write');
      expect((await act('restore', id, {}, writer)).response.statusCode).toBe(200);
      expect(await seen(writer)).toMatchObject({ history: 200, detail: 200, export: 200, revert: 200 });
      expect(await list()).not.toContain('perm TXT 0 0 x');
    });

    it('answers another account’s zone, or a change set of another zone, as unknown', async () => {
      const theirService = other.resources['other-history.test'] as number;
      const theirCookie = await t.login(other.domainName, other.username, other.password);
      await t.call(
        'POST',
        path('create/', theirService),
        { type: 'A', zona: 'theirs', value: '198.51.100.77', ttl: '0', priority: '0' },
        { cookie: theirCookie },
      );
      const theirs = (await t.call<DnsHistoryData>('GET', path('history/', theirService), {}, { cookie: theirCookie }))
        .body.data.changes[0]?.id as number;
      const theirList = async () =>
        (await t.call<DnsListData>('GET', path('list/', theirService), {}, { cookie: theirCookie })).body.data.dnss;
      const before = await theirList();
      for (const service of [theirService, serviceId]) {
        expect((await t.call('GET', path('history/', theirService), {}, { cookie })).response.statusCode).toBe(404);
        expect((await t.call('GET', path(`history/${theirs}/`, service), {}, { cookie })).response.statusCode).toBe(
          404,
        );
        for (const action of ['revert', 'restore'] as const) {
          const { response } = await t.call('POST', path(`history/${theirs}/${action}/`, service), {}, { cookie });
          expect(response.statusCode).toBe(404);
        }
        expect((await exportAt(theirs, cookie, service)).statusCode).toBe(404);
      }
      expect(await theirList()).toEqual(before);
    });
  });
});

describe.each(DATABASE_KINDS)('DNS zone history retention on %s', (kind) => {
  let t: TestApp;
  let cookie: string;
  let serviceId: number;
  let account: BuiltAccount;

  beforeAll(async () => {
    t = await buildTestApp(kind, { config: { 'dns.historyKeep': 3, 'dns.historyDays': 30 } });
    account = await buildAccount(t.database.db, {
      domainName: 'kept.test',
      resources: { 'kept.test': { hasDomain: true, hasService: true } },
    });
    serviceId = account.resources['kept.test'] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(() => t.close());

  const history = async () =>
    (await t.call<DnsHistoryData>('GET', `service/${serviceId}/dns/history/`, {}, { cookie })).body.data;
  const create = (zona: string) =>
    t.call(
      'POST',
      `service/${serviceId}/dns/create/`,
      { type: 'TXT', zona, value: 'x', ttl: '0', priority: '0' },
      { cookie },
    );

  it('keeps a zone’s newest change sets up to the count, and none older than the days', async () => {
    for (const zona of ['a', 'b', 'c', 'd']) await create(zona);
    const kept = await history();
    expect(kept.total).toBe(3);
    expect(kept.changes.map((c) => c.kind)).toEqual(['create', 'create', 'create']);
    t.clock.advance(31 * 86_400);
    cookie = await t.login(account.domainName, account.username, account.password);
    await create('e');
    expect((await history()).total).toBe(1);
  });
});

describe.each(DATABASE_KINDS)('DNS zone history and the DNS server’s answer on %s', (kind) => {
  let driver: ScriptedDnsDriver;
  let t: TestApp;
  let cookie: string;
  let serviceId: number;

  beforeAll(async () => {
    driver = new ScriptedDnsDriver();
    t = await buildTestApp(kind, { dnsDriver: driver, config: { 'dns.republishSeconds': 0 } });
    const account = await buildAccount(t.database.db, { domainName: `answer-${kind}.test` });
    serviceId = account.resources[`answer-${kind}.test`] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(() => t.close());

  const history = async () =>
    (await t.call<DnsHistoryData>('GET', `service/${serviceId}/dns/history/`, {}, { cookie })).body.data;
  const create = (zona: string) =>
    t.call<DnsOneData>(
      'POST',
      `service/${serviceId}/dns/create/`,
      { type: 'TXT', zona, value: 'x', ttl: '0', priority: '0' },
      { cookie },
    );

  it('a change the server refuses leaves no change set; one it cannot take now, or has not confirmed, keeps its own', async () => {
    await create('first');
    const before = await history();
    driver.script('refuse');
    expect((await create('refused')).response.statusCode).toBe(400);
    expect(await history()).toEqual(before);
    const unconfirmed = 'Hecho en el panel. El servidor DNS aún no lo ha confirmado: se publicará en cuanto responda.';
    driver.script('down');
    const revert = await t.call(
      'POST',
      `service/${serviceId}/dns/history/${before.changes[0]?.id}/revert/`,
      {},
      { cookie },
    );
    expect(revert.response.statusCode).toBe(200);
    expect(revert.body.system.info).toEqual([unconfirmed]);
    expect((await history()).total).toBe(before.total + 1);
    driver.script('late');
    expect((await create('late')).body.system.info).toEqual([unconfirmed]);
    expect((await history()).total).toBe(before.total + 2);
  });
});
