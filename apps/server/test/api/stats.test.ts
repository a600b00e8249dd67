import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { StatsSiteData, StatsSitesData, StatsSummary } from '@panel247/contract/stats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../src/i18n/messages.ts';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

/** A month's summary as the web server keeps it, with these totals. */
const summary = (hits: number, month: string): StatsSummary => ({
  totals: { visitors: Math.ceil(hits / 2), hits, pages: hits - 1, bytes: hits * 1000, notFound: 1 },
  days: [{ date: `${month}-03`, visitors: Math.ceil(hits / 2), hits, bytes: hits * 1000 }],
  pages: [{ path: '/', hits: hits - 1, visitors: 1 }],
  referrers: [],
  statuses: [
    { code: '200', hits: hits - 1 },
    { code: '404', hits: 1 },
  ],
  countries: null,
});

describe.each(DATABASE_KINDS)('site statistics on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let readerCookie: string;
  let noneCookie: string;
  let id: number;
  let otherId: number;
  const domain = 'visitas.test';

  beforeAll(async () => {
    t = await buildTestApp(kind, { config: { 'hosting.root': mkdtempSync(path.join(tmpdir(), 'p247-stats-')) } });
    account = await buildAccount(t.database.db, {
      domainName: domain,
      resources: { [domain]: { hasService: true }, 'ajena.test': { hasService: true } },
    });
    id = account.resources[domain] as number;
    otherId = account.resources['ajena.test'] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
    const reader = await buildUser(t.database.db, account, 'stats-reader', {
      [domain]: { ...allKeys('disabled'), service: 'read', service_stats: 'read' },
    });
    readerCookie = await t.login(account.domainName, reader.username, reader.password);
    const none = await buildUser(t.database.db, account, 'stats-none', {
      [domain]: { ...allKeys('disabled'), service: 'write' },
    });
    noneCookie = await t.login(account.domainName, none.username, none.password);
    // the web server's summaries of two months, and one of another service
    const rows = [
      { service_id: id, host: domain, month: '2026-10', summary: JSON.stringify(summary(40, '2026-10')) },
      { service_id: id, host: domain, month: '2026-11', summary: JSON.stringify(summary(90, '2026-11')) },
      { service_id: id, host: `old.${domain}`, month: '2026-09', summary: JSON.stringify(summary(5, '2026-09')) },
      { service_id: otherId, host: 'ajena.test', month: '2026-11', summary: JSON.stringify(summary(7, '2026-11')) },
    ];
    await t.database.db
      .insertInto('site_stats')
      .values(rows.map((row) => ({ ...row, updated_at: 1_790_000_000 })))
      .execute();
  });
  afterAll(() => t.close());

  const call = <T>(route: string, params: Record<string, string> = {}, as = cookie, service = id) =>
    t.call<T>('POST', `service/${service}/stats/${route}`, params, { cookie: as });

  it('lists the sites of today and those with statistics from before, each with its months', async () => {
    const answer = await call<StatsSitesData>('');
    expect(answer.body.system.valid, answer.body.system.errors.join()).toBe(true);
    expect(answer.body.data).toEqual({
      sites: [
        { host: `old.${domain}`, months: ['2026-09'] },
        { host: domain, months: ['2026-11', '2026-10'] },
      ],
      refreshSeconds: 3600,
      updatedAt: 0,
    });
  });

  it('shows a site’s newest month unless another is asked for, with every month’s totals', async () => {
    const newest = (await call<StatsSiteData>('site/', { host: domain }, readerCookie)).body.data;
    expect(newest.month).toBe('2026-11');
    expect(newest.summary?.totals.hits).toBe(90);
    expect(newest.months.map((month) => [month.month, month.hits])).toEqual([
      ['2026-10', 40],
      ['2026-11', 90],
    ]);
    const october = (await call<StatsSiteData>('site/', { host: domain, month: '2026-10' })).body.data;
    expect(october.summary?.days).toEqual([{ date: '2026-10-03', visitors: 20, hits: 40, bytes: 40_000 }]);
  });

  it('refuses a month without statistics, a bad month, and a host that is not the service’s', async () => {
    expect((await call('site/', { host: domain, month: '2026-01' })).response.statusCode).toBe(404);
    const bad = await call('site/', { host: domain, month: '2026-13' });
    expect(bad.body.system.inputs).toEqual(['month']);
    expect((await call('site/', { host: 'ajena.test' })).response.statusCode).toBe(404);
  });

  it('lets those who see statistics read them, and only those who may change them ask for a refresh', async () => {
    expect((await call('refresh/', {}, readerCookie)).response.statusCode).toBe(403);
    expect((await call('', {}, noneCookie)).response.statusCode).toBe(404);
    expect((await call('', {}, readerCookie, otherId)).response.statusCode).toBe(404);
    const asked = await call('refresh/');
    expect(asked.body.system.info).toEqual([translate('es', 'stats.refresh_started')]);
  });
});
