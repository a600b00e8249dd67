import type { ActivityEntry, ActivityListData } from '@panel247/contract/activity';
import type { ApiTokenCreatedData } from '@panel247/contract/api-tokens';
import type { Envelope } from '@panel247/contract/envelope';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

const MAILBOX_SECRET = 'Mailbox-Secret-4f8a-long';

describe.each(DATABASE_KINDS)('the activity log on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let theirs: BuiltAccount;
  let cookie: string;
  let site: number;
  let other: number;
  let mailReader: { username: string; password: string };

  beforeAll(async () => {
    t = await buildTestApp(kind, { config: { 'limits.loginPerAccount': 50, 'limits.loginPerIp': 500 } });
    account = await buildAccount(t.database.db, {
      domainName: 'activity.test',
      resources: {
        'activity.test': { hasDomain: true, hasService: true, hasMail: true },
        'second.test': { hasDomain: true, hasService: true, hasMail: true },
      },
    });
    theirs = await buildAccount(t.database.db, { domainName: 'their-activity.test' });
    site = account.resources['activity.test'] as number;
    other = account.resources['second.test'] as number;
    // sees the mail of the first resource only: never its DNS, nor the second resource
    mailReader = await buildUser(t.database.db, account, 'mailreader', {
      'activity.test': { service: 'read', servicemail: 'read', servicemail_accounts: 'read' },
    });
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(() => t.close());

  async function list(params: Record<string, string> = {}, session = cookie) {
    return (await t.call<ActivityListData>('GET', 'activity/list/', params, { cookie: session })).body;
  }

  async function change(path: string, params: Record<string, string>, session = cookie) {
    const { body } = await t.call('POST', path, params, { cookie: session });
    expect(body.system.valid, body.system.errors.join()).toBe(true);
  }

  it('records a change with who, from where, which resource, and what it sent', async () => {
    await change(`service/${site}/dns/create/`, {
      type: 'A',
      zona: 'www2',
      value: '203.0.113.9',
      ttl: '0',
      priority: '0',
    });
    const body = await list();
    expect(body.system.valid).toBe(true);
    const entry = body.data.entries[0] as ActivityEntry;
    expect(entry).toMatchObject({
      user: 'admin',
      ip: '127.0.0.1',
      via: 'web',
      resource: { id: site, reference: 'activity.test' },
      area: 'dns',
      action: 'dns/create',
    });
    expect(entry.target).toBe('www2 A');
    expect(entry.changes).toEqual(expect.arrayContaining([{ field: 'value', before: null, after: '203.0.113.9' }]));
    expect(Math.abs(entry.at - Math.floor(t.clock.now() / 1000))).toBeLessThan(5);
  });

  it('says what an edit changed, before and after', async () => {
    const listed = await t.call<{ dnss: { id: number; zona: string }[] }>(
      'GET',
      `service/${site}/dns/list/`,
      {},
      { cookie },
    );
    const record = listed.body.data.dnss.find((row) => row.zona === 'www2');
    await change(`service/${site}/dns/${record?.id}/save/`, { value: '203.0.113.99', ttl: '0', priority: '0' });
    expect((await list()).data.entries[0]).toMatchObject({
      action: 'dns/save',
      target: 'www2 A',
      changes: [{ field: 'value', before: '203.0.113.9', after: '203.0.113.99' }],
    });

    await change(`domain/${site}/toggle/block/`, {});
    expect((await list()).data.entries[0]).toMatchObject({
      area: 'domain',
      action: 'toggle/block',
      changes: [{ field: 'blocked', before: 'false', after: 'true' }],
    });
  });

  it('never keeps a secret: a mailbox password reaches neither the list nor the export', async () => {
    await change(`service/${site}/correo/create/`, { name: 'sales', password: MAILBOX_SECRET });
    const body = await list({ area: 'mail' });
    expect(body.data.entries[0]).toMatchObject({ area: 'mail', action: 'correo/create' });
    expect(JSON.stringify(body)).not.toContain(MAILBOX_SECRET);
    const rows = await t.database.db.selectFrom('activity_log').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(MAILBOX_SECRET);
    const csv = await t.app.inject({
      method: 'GET',
      url: `${t.config.basePath}activity/export/`,
      headers: { cookie, 'x-dd-request': '1' },
    });
    expect(csv.body).not.toContain(MAILBOX_SECRET);
  });

  it('records reads that change nothing not at all, and refused changes not as changes', async () => {
    const before = (await list()).data.total;
    await t.call('GET', `service/${site}/dns/list/`, {}, { cookie });
    await t.call('POST', `service/${site}/dns/create/`, { type: 'A', zona: 'bad', value: 'not an ip' }, { cookie });
    expect((await list()).data.total).toBe(before);
  });

  it('shows each reader only what their permissions show them, per account and per resource', async () => {
    await change(`service/${other}/dns/create/`, { type: 'A', zona: 'elsewhere', value: '203.0.113.10' });
    const readerCookie = await t.login(account.domainName, mailReader.username, mailReader.password);

    const seen = (await list({}, readerCookie)).data;
    expect(seen.entries.length).toBeGreaterThan(0);
    for (const entry of seen.entries) {
      // the mail of the resource it can see, and its own login: no DNS, no second resource
      expect(entry.area === 'mail' || (entry.area === 'security' && entry.user === 'mailreader')).toBe(true);
      if (entry.resource) expect(entry.resource.id).toBe(site);
    }
    expect(seen.users).not.toContain('nobody');

    const own = (await list({ resource: String(site) })).data;
    expect(own.entries.every((entry) => entry.resource?.id === site)).toBe(true);
    expect(own.entries.map((entry) => entry.area)).toEqual(expect.arrayContaining(['dns', 'mail']));

    // a resource it cannot see, and another account's, are unknown ids
    for (const [resource, session] of [
      [other, readerCookie],
      [theirs.resources['their-activity.test'] as number, cookie],
    ] as const) {
      const refused = await t.call('GET', 'activity/list/', { resource: String(resource) }, { cookie: session });
      expect(refused.response.statusCode).toBe(404);
    }
  });

  it('logs logins and failed logins for the user they name, and only that user sees them', async () => {
    const failed = await t.call('POST', 'user/login/', {
      domainName: account.domainName,
      username: account.username,
      password: 'Wrong-Guess-1',
    });
    expect(failed.body.system.valid).toBe(false);
    const security = (await list({ area: 'security' })).data.entries.map((entry) => entry.action);
    expect(security).toEqual(expect.arrayContaining(['auth.login', 'auth.login_failed']));

    const readerCookie = await t.login(account.domainName, mailReader.username, mailReader.password);
    const readerSees = (await list({ area: 'security' }, readerCookie)).data.entries;
    expect(readerSees.every((entry) => entry.user === 'mailreader')).toBe(true);
  });

  it('filters by user, area and day, and pages on the server', async () => {
    for (let n = 0; n < 12; n += 1) {
      await change(`service/${site}/dns/create/`, { type: 'A', zona: `page${n}`, value: `203.0.113.${20 + n}` });
    }
    const dns = (await list({ area: 'dns', pageSize: '10' })).data;
    expect(dns.entries).toHaveLength(10);
    expect(dns.total).toBeGreaterThanOrEqual(14);
    const second = (await list({ area: 'dns', page: '2', pageSize: '10' })).data;
    expect(second.entries.length).toBe(dns.total - 10);
    expect(second.entries[0]?.id).toBeLessThan(dns.entries[9]?.id as number);

    expect((await list({ user: 'mailreader' })).data.entries.every((entry) => entry.user === 'mailreader')).toBe(true);
    const today = new Date(t.clock.now()).toISOString().slice(0, 10);
    const tomorrow = new Date(t.clock.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await list({ from: today, to: today })).data.total).toBe((await list()).data.total);
    expect((await list({ from: tomorrow })).data.total).toBe(0);

    // the web app sends every filter, empty ones too
    const empty = await list({ user: '', area: '', from: '', to: '' });
    expect(empty.system.valid).toBe(true);
    expect(empty.data.total).toBe((await list()).data.total);
    const bad = await t.call('GET', 'activity/list/', { from: '26/11/2026', area: 'everything' }, { cookie });
    expect(bad.body.system).toMatchObject({ valid: false });
    expect(bad.body.system.inputs).toEqual(expect.arrayContaining(['from', 'area']));
  });

  it('exports the filtered log as CSV', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `${t.config.basePath}activity/export/?area=dns&language=en`,
      headers: { cookie, 'x-dd-request': '1' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toContain('activity.csv');
    const lines = response.body.trim().split('\r\n');
    expect(lines[0]).toBe('time,user,ip,via,resource,area,action,target,changes');
    expect(lines.length - 1).toBe((await list({ area: 'dns' })).data.total);
    expect(lines[1]).toContain('DNS zone');
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `${t.config.basePath}activity/export/`,
      headers: { 'x-dd-request': '1' },
    });
    expect((anonymous.json() as Envelope<unknown>).system.statusCode).toBe(101);
  });

  it('marks what a token did, and a token reads only its own resources', async () => {
    const made = await t.call<ApiTokenCreatedData>(
      'POST',
      'user/apitokens/create/',
      { name: 'ci', expiresInDays: '30', password: account.password, scope: [`${other}:write`] },
      { cookie },
    );
    expect(made.body.system.valid, made.body.system.errors.join()).toBe(true);
    const headers = { authorization: `Bearer ${made.body.data.token}` };
    const created = await t.app.inject({
      method: 'POST',
      url: `${t.config.basePath}service/${other}/dns/create/`,
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ type: 'A', zona: 'bytoken', value: '203.0.113.50' }).toString(),
    });
    expect(created.json().system.valid).toBe(true);
    const mine = (await list({ resource: String(other) })).data.entries[0];
    expect(mine).toMatchObject({ via: 'api', user: 'admin', action: 'dns/create' });

    const byToken = await t.app.inject({ method: 'GET', url: `${t.config.basePath}activity/list/`, headers });
    const entries = (byToken.json() as Envelope<ActivityListData>).data.entries;
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((entry) => entry.resource?.id === other)).toBe(true);
    const security = (await list({ area: 'security' })).data.entries.map((entry) => entry.action);
    expect(security).toContain('auth.api_token_created');
  });

  it('forgets entries past the retention', async () => {
    const before = (await list()).data.total;
    expect(before).toBeGreaterThan(0);
    t.clock.advance(366 * 86_400);
    expect(await t.services.activity.purge()).toBeGreaterThanOrEqual(before);
    t.clock.advance(-366 * 86_400);
    const fresh = await t.login(account.domainName, account.username, account.password);
    const after = (await list({}, fresh)).data;
    expect(after.entries.map((entry) => entry.action)).toEqual(['auth.login']);
  });
});
