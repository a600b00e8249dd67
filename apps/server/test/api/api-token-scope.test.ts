import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ApiTokenCreatedData } from '@panel247/contract/api-tokens';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.ts';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

const KEY = 'a shared single-sign-on key of 32+ chars';
const UNKNOWN = 999_999;
const UNKNOWN_JOB = 'f'.repeat(32);

/** What the OpenAPI document lists: a path, its methods and who may call it. */
type Operations = Record<string, Record<string, { security?: object[] }>>;

const PASSWORD = { password: 'a long passphrase here X1' };
/**
 * Parameters that get a call past its schema, so that only the ids can refuse it. A call not
 * named here needs none; every call of the sweep must reach its ids (the unknown id's 404).
 */
const BODIES: Record<string, Record<string, string>> = {
  // (a user's id: no user call is a token's, whatever the id)
  'users/{id}/manager/': { manageUsers: 'true' },
  'users/{id}/permissions/set/': { resource: '1', levels: JSON.stringify(allKeys('read')) },
  'users/{id}/permissions/copy/': { from: '1' },
  'service/{id}/dns/create/': { type: 'A', zona: 'www', value: '203.0.113.9', ttl: '0', priority: '0' },
  'service/{id}/dns/{dnsZoneId}/save/': { type: 'A', zona: 'www', value: '203.0.113.9', ttl: '0', priority: '0' },
  'service/{id}/dns/import/preview/': { text: 'www 3600 IN A 203.0.113.9' },
  'service/{id}/dns/import/': { text: 'www 3600 IN A 203.0.113.9' },
  'service/{id}/dns/import/axfr/': { server: 'ns1.example.com' },
  'domain/{id}/gluerecord/create/': { name: 'ns1', ip: '203.0.113.10' },
  'domain/{id}/gluerecord/{glueId}/save/': { ip: '203.0.113.10' },
  'domain/{id}/owner/save/': { type: 'registrant' },
  'service/{id}/cron/preview/': { schedule: '0 * * * *' },
  'service/{id}/cron/create/': { kind: 'php', target: 'a.php', schedule: '0 * * * *' },
  'service/{id}/cron/{taskId}/save/': { kind: 'php', target: 'a.php', schedule: '0 * * * *' },
  'domain/{id}/contacts/save/': { type: 'admin' },
  'service/{id}/correo/create/': { name: 'box', ...PASSWORD },
  'service/{id}/correo/{accountId}/changepassword/': PASSWORD,
  'service/{id}/correo/{accountId}/quota/': { quota: '100' },
  'service/{id}/alias/create/': { name: 'alias', target: 'someone@example.com' },
  'service/{id}/alias/{aliasId}/save/': { target: 'someone@example.com' },
  'service/{id}/mail/auth/policy/': { dmarcPolicy: 'none' },
  'service/{id}/correo/{accountId}/spam/save/': { mode: 'junk', threshold: '6' },
  'service/{id}/mail/spam/senders/add/': { list: 'block', sender: 'spam.example.net' },
  'service/{id}/ftp/create/': { ftpUser: 'ftp', ...PASSWORD },
  'service/{id}/ftp/{fid}/save/': { folder: 'www' },
  'service/{id}/ftp/{fid}/changepassword/': PASSWORD,
  'service/{id}/ftp/keys/add/': {
    key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJ3m2FjVK8oZb1uBh3cN2WvTCNhZ3J5mNf2yqN7o6XyZ',
  },
  'service/{id}/stats/site/': { host: 'example.com' },
  'service/{id}/ddbb/create/': PASSWORD,
  'service/{id}/ddbb/{did}/changepassword/': PASSWORD,
  'service/{id}/files/save/': { path: 'a.txt', content: 'x' },
  'service/{id}/files/mkdir/': { name: 'folder' },
  'service/{id}/files/rename/': { path: 'a.txt', name: 'b.txt' },
  'service/{id}/files/copy/': { path: 'a.txt' },
  'service/{id}/files/move/': { path: 'a.txt' },
  'service/{id}/files/chmod/': { path: 'a.txt', mode: '644' },
  'service/{id}/files/upload/status/': { name: 'a.txt' },
  'service/{id}/backups/restore/': { snapshot: 'abcdef12', what: 'files' },
  'service/{id}/php/': { phpVersion: '8.2' },
  'service/{id}/webcontructorlogin/': { subdomain: 'www' },
  'service/{id}/redirection/create/': { subDomain: 'x', urlRedir: 'https://example.com/', redirType: '301' },
  'service/{id}/redirection/{rid}/save/': { subDomain: 'x', urlRedir: 'https://example.com/', redirType: '301' },
  'service/{id}/subdomain/create/': { subDomain: 'x' },
  'service/{id}/subdomain/{sid}/save/': { directorio: 'www' },
  'service/{id}/installapp/': { subdomainID: '1', applicationID: '1' },
};

/** The tables of every item the sweep may reach, and each one's owning column. */
const ITEM_TABLES = [
  ['mailboxes', 'service_id'],
  ['mail_aliases', 'service_id'],
  ['mail_spam_senders', 'service_id'],
  ['ftp_accounts', 'service_id'],
  ['hosted_databases', 'service_id'],
  ['dns_records', 'service_id'],
  ['dns_change_sets', 'service_id'],
  ['web_sites', 'service_id'],
  ['web_redirections', 'service_id'],
  ['domain_glue_records', 'resource_id'],
  ['domain_ds_records', 'resource_id'],
  ['install_jobs', 'service_id'],
  ['backup_jobs', 'service_id'],
  ['dnssec_unsign_jobs', 'service_id'],
] as const;

/** One item of each kind on a service, written straight to the tables: what the sweep's ids name. */
async function seedItems(db: Db, serviceId: number, userId: number, tag: string) {
  const now = Math.floor(Date.now() / 1000);
  const id = async (table: (typeof ITEM_TABLES)[number][0], values: object) => {
    // `never`: one helper for the tables of the schema, each row written as that table's test wants.
    const row = await db
      .insertInto(table)
      .values(values as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  };
  const job = () => randomBytes(16).toString('hex');
  const ids = {
    accountId: await id('mailboxes', {
      service_id: serviceId,
      local_part: `box${tag}`,
      password_hash: 'x',
      quota_bytes: 1,
      created_at: now,
      sort_key: `box${tag}`,
    }),
    aliasId: await id('mail_aliases', {
      service_id: serviceId,
      local_part: `alias${tag}`,
      targets: 'a@example.com',
      created_at: now,
      sort_key: `alias${tag}`,
    }),
    senderId: await id('mail_spam_senders', {
      service_id: serviceId,
      list: 'block',
      sender: `spam${tag}.example.net`,
      created_at: now,
    }),
    fid: await id('ftp_accounts', {
      service_id: serviceId,
      login: `ftp${tag}`,
      folder: '',
      password_hash: 'x',
      password_sealed: 'x',
      home: '/nonexistent',
      created_at: now,
    }),
    did: await id('hosted_databases', {
      service_id: serviceId,
      name: `db${tag}`,
      db_user: `db${tag}`,
      password_sealed: 'x',
      created_at: now,
    }),
    dnsZoneId: await id('dns_records', {
      service_id: serviceId,
      zona: `r${tag}`,
      type: 'A',
      ttl: 0,
      priority: 0,
      value: '203.0.113.1',
      dynamic_value: '',
      eliminable: 1,
      created_at: now,
    }),
    changeId: await id('dns_change_sets', {
      service_id: serviceId,
      created_at: now,
      user_id: userId,
      who: 'seed',
      kind: 'edit',
      rrset_count: 0,
    }),
    sid: await id('web_sites', { service_id: serviceId, subdomain: `s${tag}`, folder: `s${tag}`, created_at: now }),
    rid: await id('web_redirections', {
      service_id: serviceId,
      subdomain: `r${tag}`,
      path: '',
      url: 'https://example.com/',
      type: '301',
      created_at: now,
    }),
    glueId: await id('domain_glue_records', {
      resource_id: serviceId,
      name: `ns${tag}`,
      ipv4: '203.0.113.2',
      ipv6: '',
    }),
    dnssecId: await id('domain_ds_records', {
      resource_id: serviceId,
      keytag: 1,
      algorithm: 13,
      digest_type: 2,
      digest: 'ab'.repeat(32),
    }),
    installJob: job(),
    backupJob: job(),
    dnssecJob: job(),
  };
  const times = { created_at: now, updated_at: now };
  await db
    .insertInto('install_jobs')
    .values({ id: ids.installJob, user_id: userId, service_id: serviceId, app_id: 1, status: 'done', ...times })
    .execute();
  await db
    .insertInto('backup_jobs')
    .values({ id: ids.backupJob, user_id: userId, service_id: serviceId, kind: 'backup', status: 'done', ...times })
    .execute();
  await db
    .insertInto('dnssec_unsign_jobs')
    .values({ id: ids.dnssecJob, user_id: userId, service_id: serviceId, status: 'done', step: 'done', ...times })
    .execute();
  return ids;
}

type Items = Awaited<ReturnType<typeof seedItems>>;

/** A path of the document with its parameters filled: `id` and each item's id (a job's by its route). */
function fill(template: string, id: number, items: Items | 'unknown'): string {
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    if (name === 'id') return String(id);
    if (items === 'unknown') return name === 'jobId' ? UNKNOWN_JOB : String(UNKNOWN);
    if (name !== 'jobId') return String(items[name as keyof Items]);
    if (template.includes('/backups/')) return items.backupJob;
    if (template.includes('/dnssec/')) return items.dnssecJob;
    return items.installJob;
  });
}

/**
 * A token limited to one resource reaches nothing of another: every call the OpenAPI document opens
 * to tokens and that takes an id answers an id outside the token — a resource, or an item (a
 * mailbox, a record, a job…) of another resource under the token's own — exactly as it answers an
 * unknown id, and changes nothing. The calls come from the document, so a new one is swept too.
 */
describe.each(DATABASE_KINDS)('an API token on every id-taking call on %s', (kind) => {
  let t: TestApp;
  let mine: BuiltAccount;
  let inScope: number;
  let outOfScope: number;
  let foreign: number;
  let token: string;
  let items: Items;
  let calls: { template: string; method: 'GET' | 'POST' }[];

  beforeAll(async () => {
    const temp = (name: string) => mkdtempSync(path.join(tmpdir(), `p247-scope-${name}-`));
    t = await buildTestApp(kind, {
      config: {
        'hosting.root': temp('www'),
        'web.configDir': temp('web'),
        'mail.root': temp('mail'),
        'hosting.webftpKey': KEY,
        'mail.webmailKey': KEY,
        'databases.phpmyadminKey': KEY,
      },
    });
    const everything = { hasDomain: true, hasService: true, hasMail: true };
    mine = await buildAccount(t.database.db, {
      domainName: 'scope.test',
      resources: { 'scope.test': everything, 'elsewhere.test': everything },
    });
    const theirs = await buildAccount(t.database.db, { domainName: 'their-scope.test' });
    inScope = mine.resources['scope.test'] as number;
    outOfScope = mine.resources['elsewhere.test'] as number;
    foreign = theirs.resources['their-scope.test'] as number;
    const cookie = await t.login(mine.domainName, mine.username, mine.password);
    // The zone and the domain first (the items belong to them): each view makes its own on its
    // first visit.
    for (const id of [inScope, outOfScope]) {
      for (const view of [`service/${id}/dns/list/`, `domain/${id}/`]) {
        expect((await t.call('GET', view, {}, { cookie })).response.statusCode, view).toBe(200);
      }
    }
    items = await seedItems(t.database.db, outOfScope, mine.userId, 'o');
    const made = await t.call<ApiTokenCreatedData>(
      'POST',
      'user/apitokens/create/',
      { name: 'scoped', expiresInDays: '30', password: mine.password, scope: [`${inScope}:write`] },
      { cookie },
    );
    expect(made.body.system.valid, made.body.system.errors.join()).toBe(true);
    token = made.body.data.token;

    const base = t.config.basePath;
    const document = (await t.app.inject({ method: 'GET', url: `${base}openapi.json` })).json() as {
      paths: Operations;
    };
    calls = Object.entries(document.paths).flatMap(([url, operations]) => {
      const template = url.slice(base.length);
      // Every call the document opens to a token (the login's own `user/…` calls it does not).
      const open = Object.values(operations).some((operation) => operation.security?.some((way) => 'bearer' in way));
      if (!template.includes('{') || !open) return [];
      return [{ template, method: operations.post ? ('POST' as const) : ('GET' as const) }];
    });
  });
  afterAll(() => t.close());

  /** A script's call: the token alone, the parameters in the query (GET) or the form body. */
  function withToken(method: 'GET' | 'POST', route: string, params: Record<string, string> = {}) {
    const url = `${t.config.basePath}${route}`;
    const headers = { authorization: `Bearer ${token}` };
    const form = new URLSearchParams(params).toString();
    if (method === 'GET') return t.app.inject({ method, url: form ? `${url}?${form}` : url, headers });
    return t.app.inject({
      method,
      url,
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form,
    });
  }

  async function snapshot() {
    const rows: unknown[] = [];
    for (const [table, owner] of ITEM_TABLES) {
      // biome-ignore lint/suspicious/noExplicitAny: the same query on every item table
      rows.push(await (t.database.db.selectFrom(table) as any).selectAll().where(owner, '=', outOfScope).execute());
    }
    return JSON.stringify(rows);
  }

  it('covers the calls that name an item, jobs and downloads included', () => {
    const named = calls.map((call) => call.template);
    for (const expected of [
      'job/{jobId}/',
      'service/{id}/backups/job/{jobId}/',
      'service/{id}/dns/dnssec/job/{jobId}/',
      'service/{id}/correo/{accountId}/mobileconfig/',
      'service/{id}/ddbb/{did}/dump/',
      'service/{id}/dns/history/{changeId}/export/',
      'permission/{id}/',
    ]) {
      expect(named).toContain(expected);
    }
  });

  type Case = { method: 'GET' | 'POST'; unknown: string; others: string[]; params?: Record<string, string> };

  /** Every call whose answer is not the unknown id's 404, named with what it answered. */
  async function differences(cases: Case[]) {
    const wrong: string[] = [];
    for (const { method, unknown, others, params } of cases) {
      const expected = await withToken(method, unknown, params);
      if (expected.statusCode !== 404) wrong.push(`${unknown}: ${expected.statusCode} ${expected.body.slice(0, 160)}`);
      for (const route of others) {
        const answer = await withToken(method, route, params);
        if (answer.statusCode !== 404 || answer.body !== expected.body) wrong.push(`${route}: ${answer.statusCode}`);
      }
    }
    return wrong;
  }

  it('answers a resource outside the token exactly like an unknown id, on every call', async () => {
    const before = await snapshot();
    const cases = calls
      .filter((call) => call.template.includes('{id}'))
      .map(({ template, method }) => ({
        method,
        params: BODIES[template],
        unknown: fill(template, UNKNOWN, items),
        others: [outOfScope, foreign].map((id) => fill(template, id, items)),
      }));
    expect(cases.length).toBeGreaterThan(100);
    expect(await differences(cases)).toEqual([]);
    expect(await snapshot()).toBe(before);
  });

  it('answers an item of another resource, under the token’s own, exactly like an unknown id', async () => {
    const before = await snapshot();
    const cases: Case[] = calls
      .filter((call) => /\{(?!id\})\w+\}/.test(call.template))
      .map(({ template, method }) => ({
        method,
        params: BODIES[template],
        unknown: fill(template, inScope, 'unknown'),
        others: [fill(template, inScope, items)],
      }));
    expect(cases.length).toBeGreaterThan(30);
    // The file manager's calls name an FTP account's folder as their root in a parameter.
    for (const call of ['list', 'read', 'download', 'zip']) {
      const route = (ftp: number) => `service/${inScope}/files/${call}/?ftp=${ftp}`;
      cases.push({ method: 'GET', unknown: route(UNKNOWN), others: [route(items.fid)] });
    }
    expect(await differences(cases)).toEqual([]);
    expect(await snapshot()).toBe(before);
  });

  it('names no site or database of another resource when installing: the unknown one’s field errors', async () => {
    const install = (subdomainID: number, mysqlID: number) =>
      withToken('POST', `service/${inScope}/installapp/`, {
        applicationID: '1',
        subdomainID: String(subdomainID),
        mysqlID: String(mysqlID),
      });
    const unknown = await install(UNKNOWN, UNKNOWN);
    expect(unknown.json().system.inputs).toEqual(expect.arrayContaining(['subdomainID', 'mysqlID']));
    const other = await install(items.sid, items.did);
    expect(other.statusCode).toBe(unknown.statusCode);
    expect(other.body).toBe(unknown.body);
  });

  it('reads its own resource’s install job and mailbox profile; the user’s session reads the others', async () => {
    const own = await seedItems(t.database.db, inScope, mine.userId, 'i');
    const job = await withToken('GET', `job/${own.installJob}/`);
    expect(job.statusCode, job.body).toBe(200);
    expect(job.json().data.job).toMatchObject({ id: own.installJob, status: 'done' });
    const profile = await withToken('GET', `service/${inScope}/correo/${own.accountId}/mobileconfig/`);
    expect(profile.statusCode, profile.body).toBe(200);
    expect(profile.headers['content-type']).toBe('application/x-apple-aspen-config');
    // The job is the user's: the session reaches it; the token is what narrows.
    const cookie = await t.login(mine.domainName, mine.username, mine.password);
    const viaCookie = await t.call('GET', `job/${items.installJob}/`, {}, { cookie });
    expect(viaCookie.response.statusCode).toBe(200);
  });
});
