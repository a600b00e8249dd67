import type { DnsRecord } from '@panel247/contract/dns';
import type { DnsImportData } from '@panel247/contract/dns-import';
import type { MailAuthData } from '@panel247/contract/mail-auth';
import { MAIL_AUTH_API } from '@panel247/contract/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

type List = { dnss: DnsRecord[]; total: number };
type One = { dns: DnsRecord; rrsetRetimed?: number };

/** The provider's default records, fixed here so the tests do not follow the product's set. */
const DEFAULTS = [
  { zona: '', type: 'NS', value: '{ns}', eliminable: false },
  { zona: '', type: 'A', value: '{web_ipv4}' },
  { zona: '', type: 'MX', priority: 10, value: 'mail.{domain}' },
  { zona: '', type: 'TXT', value: 'v=spf1 mx a include:{spf_include} ~all' },
  { zona: '_dmarc', type: 'TXT', value: 'v=DMARC1; p=none; rua=mailto:{dmarc_report}' },
];
const SPF = 'v=spf1 mx a include:spf.provider.test ~all';
const DMARC = 'v=DMARC1; p=none; rua=mailto:dmarc@provider.test';

/**
 * The records the panel shows are the records receivers get: one SPF record per name and one
 * DMARC record at `_dmarc` (a second refused, an import's second a conflict to settle), one TTL per
 * RRset, and the mail form changing only the record whose inputs changed.
 */
describe.each(DATABASE_KINDS)('DNS records as served (%s)', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let id: number;
  const zone = `served-${kind}.test`;

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      config: {
        'dns.defaultRecords': DEFAULTS,
        'dns.spfInclude': 'spf.provider.test',
        'dns.dmarcReport': 'dmarc@provider.test',
        // Nothing answers here: an include is looked up and found unanswered at once.
        'registry.resolvers': ['127.0.0.1:9'],
      },
    });
    account = await buildAccount(t.database.db, {
      domainName: zone,
      resources: { [zone]: { hasService: true, hasMail: true } },
    });
    id = account.resources[zone] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(() => t.close());

  const list = async () => (await t.call<List>('GET', `service/${id}/dns/list/`, {}, { cookie })).body.data.dnss;
  const restore = () => t.call('POST', `service/${id}/dns/restore/`, {}, { cookie });
  const create = (params: Record<string, string>) =>
    t.call<One>(
      'POST',
      `service/${id}/dns/create/`,
      { language: 'en', ttl: '0', priority: '0', ...params },
      { cookie },
    );
  const save = (recordId: number, params: Record<string, string>) =>
    t.call<One>(
      'POST',
      `service/${id}/dns/${recordId}/save/`,
      { language: 'en', priority: '0', ...params },
      { cookie },
    );
  const txt = async (zona: string) => (await list()).filter((r) => r.type === 'TXT' && r.zona === zona);
  const importCall = (step: 'preview' | 'apply', params: Record<string, string>) =>
    t.call<DnsImportData>(
      'POST',
      `service/${id}/dns/import/${step === 'preview' ? 'preview/' : ''}`,
      { language: 'en', mode: 'merge', ...params },
      { cookie },
    );
  const exported = async () =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/p247/service/${id}/dns/export/`,
        headers: { cookie, 'x-dd-request': '1' },
      })
    ).body;

  it('refuses a second SPF record at a name (any case) and a second DMARC record, on create and edit', async () => {
    await restore();
    const spf = await create({ type: 'TXT', zona: '', value: 'V=SPF1 ip4:192.0.2.1 -all' });
    expect(spf.response.statusCode).toBe(400);
    expect(spf.body.system.inputs).toEqual(['value']);
    expect(spf.body.system.errors).toEqual([
      'This name already has an SPF record: edit it instead of adding another (with two, receivers fail SPF)',
    ]);
    const dmarc = await create({ type: 'TXT', zona: '_dmarc', value: 'v=DMARC1; p=reject' });
    expect(dmarc.response.statusCode).toBe(400);
    expect(dmarc.body.system.inputs).toEqual(['value']);
    expect(dmarc.body.system.errors[0]).toMatch(/DMARC record at _dmarc/);
    // Another name has its own SPF record; a text that is no SPF record is free.
    expect((await create({ type: 'TXT', zona: 'shop', value: 'v=spf1 -all' })).response.statusCode).toBe(200);
    const note = await create({ type: 'TXT', zona: '', value: 'google-site-verification=abc' });
    expect(note.response.statusCode).toBe(200);
    // Editing the SPF record keeps it the one; turning another TXT into SPF makes a second.
    const [current] = (await txt('')).filter((r) => r.value.startsWith('v=spf1'));
    expect((await save(current?.id as number, { value: 'v=spf1 mx -all', ttl: '0' })).response.statusCode).toBe(200);
    const turned = await save(note.body.data.dns.id, { value: 'v=spf1 a -all', ttl: '0' });
    expect(turned.response.statusCode).toBe(400);
    expect(turned.body.system.inputs).toEqual(['value']);
    expect((await txt('')).map((r) => r.value).sort()).toEqual(['google-site-verification=abc', 'v=spf1 mx -all']);
  });

  it('shows an imported second SPF or DMARC record as a conflict, skipped or replacing the zone’s', async () => {
    await restore();
    const file = [
      `$ORIGIN ${zone}.`,
      '@ TXT "v=spf1 include:_spf.other.example -all"',
      '@ TXT "v=spf1 a -all"',
      '_dmarc TXT "v=DMARC1; p=reject"',
      'www A 192.0.2.7',
    ].join('\n');
    const preview = (await importCall('preview', { text: file })).body.data;
    expect(preview.conflicts.map((c) => [c.line, c.value, c.existing.value, c.resolution])).toEqual([
      [2, 'v=spf1 include:_spf.other.example -all', SPF, 'skip'],
      [4, 'v=DMARC1; p=reject', DMARC, 'skip'],
    ]);
    // The file's own second SPF record is refused outright.
    expect(preview.refused.map((r) => [r.line, r.reason])).toEqual([
      [3, 'This name already has an SPF record: edit it instead of adding another (with two, receivers fail SPF)'],
    ]);
    expect(preview.added.map((r) => r.zona)).toEqual(['www']);

    const replacing = (await importCall('preview', { text: file, conflicts: 'replace' })).body.data;
    expect(replacing.conflicts.map((c) => c.resolution)).toEqual(['replace', 'replace']);
    expect(replacing.removed.map((r) => r.value)).toEqual([SPF, DMARC]);
    expect(replacing.added.map((r) => r.value)).toContain('v=DMARC1; p=reject');

    const skipped = await importCall('apply', { text: file, conflicts: 'skip' });
    expect(skipped.body.system.errors).toEqual([]);
    expect((await txt('')).map((r) => r.value)).toEqual([SPF]);
    expect((await txt('_dmarc')).map((r) => r.value)).toEqual([DMARC]);

    const replaced = await importCall('apply', { text: file, conflicts: 'replace' });
    expect(replaced.body.system.errors).toEqual([]);
    expect((await txt('')).map((r) => r.value)).toEqual(['v=spf1 include:_spf.other.example -all']);
    expect((await txt('_dmarc')).map((r) => r.value)).toEqual(['v=DMARC1; p=reject']);
  });

  it('keeps one TTL per RRset: a create or edit sets it on the whole RRset, said in the answer', async () => {
    await restore();
    const second = await create({ type: 'A', zona: '', value: '192.0.2.80', ttl: '600' });
    expect(second.body.system.errors).toEqual([]);
    expect(second.body.data.rrsetRetimed).toBe(1);
    expect(second.body.system.info).toEqual([
      'Record created',
      'The other records of this name and type now have the same TTL',
    ]);
    const apexA = async () => (await list()).filter((r) => r.zona === '' && r.type === 'A');
    expect((await apexA()).map((r) => r.ttl)).toEqual([600, 600]);
    expect(await exported()).toMatch(/^@\t600\tIN\tA\t192\.0\.2\.10$/m);
    expect(await exported()).toMatch(/^@\t600\tIN\tA\t192\.0\.2\.80$/m);
    const edited = await save(second.body.data.dns.id, { value: '192.0.2.80', ttl: '1800' });
    expect(edited.body.data.rrsetRetimed).toBe(1);
    expect((await apexA()).map((r) => r.ttl)).toEqual([1800, 1800]);
    // A record alone in its RRset changes nothing else, and the answer says nothing more.
    const alone = await create({ type: 'A', zona: 'solo', value: '192.0.2.81', ttl: '600' });
    expect(alone.body.data.rrsetRetimed).toBeUndefined();
    expect(alone.body.system.info).toEqual(['Record created']);
  });

  it('imports an RRset’s TTL onto the records the zone keeps, listed as changed in the preview', async () => {
    await restore();
    const file = `$ORIGIN ${zone}.\n@ 600 A 192.0.2.80\n`;
    const preview = (await importCall('preview', { text: file })).body.data;
    expect(preview.added.map((r) => [r.value, r.ttl])).toEqual([['192.0.2.80', 600]]);
    expect(preview.changed.map((r) => [r.line, r.value, r.ttl, r.before.ttl])).toEqual([[2, '192.0.2.10', 600, 0]]);
    await importCall('apply', { text: file });
    const apexA = (await list()).filter((r) => r.zona === '' && r.type === 'A');
    expect(apexA.map((r) => [r.value, r.ttl])).toEqual([
      ['192.0.2.10', 600],
      ['192.0.2.80', 600],
    ]);
    // The default record still follows the web server's address.
    expect(apexA[0]?.dynamicValue).toBe('{web_ipv4}');
    expect(await exported()).toMatch(/^@\t600\tIN\tA\t192\.0\.2\.10$/m);
  });

  it('gives the RRsets stored with several TTLs the one the DNS server serves (the smallest)', async () => {
    await restore();
    const rows = await t.database.db.selectFrom('dns_records').selectAll().where('service_id', '=', id).execute();
    const apex = rows.find((r) => r.zona === '' && r.type === 'A');
    await t.database.db
      .insertInto('dns_records')
      .values([
        { ...apex, id: undefined, value: '192.0.2.90', ttl: 86400 },
        { ...apex, id: undefined, value: '192.0.2.91', ttl: 1800 },
      ] as never)
      .execute();
    expect(await t.services.dns.normaliseRRsetTtls()).toBe(2);
    expect((await list()).filter((r) => r.zona === '' && r.type === 'A').map((r) => r.ttl)).toEqual([1800, 1800, 1800]);
    expect(await t.services.dns.normaliseRRsetTtls()).toBe(0);
  });

  it('changes only DMARC on a DMARC-only policy call, leaving SPF byte for byte, and the other way round', async () => {
    await restore();
    // An SPF record typed in the DNS view, with terms the form does not show.
    const [spf] = (await txt('')).filter((r) => r.value.startsWith('v=spf1'));
    const typed = 'v=spf1 ip4:192.0.2.0/24 mx include:spf.provider.test include:_spf.google.com -all';
    expect((await save(spf?.id as number, { value: typed, ttl: '600' })).body.system.errors).toEqual([]);
    const before = (await txt('')).find((r) => r.value === typed);

    const dmarcOnly = await t.call<MailAuthData>(
      'POST',
      MAIL_AUTH_API.policy(id),
      { dmarcPolicy: 'reject', dmarcPct: '100', dmarcRua: 'dmarc@provider.test' },
      { cookie },
    );
    expect(dmarcOnly.body.system.errors).toEqual([]);
    expect(dmarcOnly.body.system.info).toEqual(['Registro DMARC guardado; el SPF no ha cambiado']);
    expect((await txt('')).find((r) => r.value.startsWith('v=spf1'))).toEqual(before);
    expect((await txt('_dmarc')).map((r) => r.value)).toEqual(['v=DMARC1; p=reject; rua=mailto:dmarc@provider.test']);

    // The web form sends every field: the SPF list as it is changes nothing either.
    const form = await t.call<MailAuthData>(
      'POST',
      MAIL_AUTH_API.policy(id),
      {
        dmarcPolicy: 'quarantine',
        dmarcPct: '100',
        dmarcRua: ['dmarc@provider.test'],
        spfIncludes: ['spf.provider.test', '_spf.google.com'],
      },
      { cookie },
    );
    expect(form.body.system.errors).toEqual([]);
    expect(form.body.system.info).toEqual(['Registro DMARC guardado; el SPF no ha cambiado']);
    expect((await txt('')).find((r) => r.value.startsWith('v=spf1'))).toEqual(before);

    // An SPF-only change leaves DMARC as it was.
    const dmarcBefore = await txt('_dmarc');
    const spfOnly = await t.call(
      'POST',
      MAIL_AUTH_API.policy(id),
      { dmarcPolicy: 'quarantine', dmarcPct: '100', spfIncludes: 'spf.provider.test' },
      { cookie },
    );
    expect(spfOnly.body.system.info).toEqual(['Registro SPF guardado; el DMARC no ha cambiado']);
    expect(await txt('_dmarc')).toEqual(dmarcBefore);
    expect((await txt('')).map((r) => r.value)).toEqual(['v=spf1 ip4:192.0.2.0/24 mx include:spf.provider.test -all']);
  });

  it('flags in the mail view what receivers would find broken: two records, a syntax error', async () => {
    await restore();
    const view = async () => (await t.call<MailAuthData>('GET', MAIL_AUTH_API.view(id), {}, { cookie })).body.data;
    expect((await view()).spf.record.problem).toBeUndefined();
    // Records written behind the panel's back (an old import, the database edited by hand).
    const rows = await t.database.db.selectFrom('dns_records').selectAll().where('service_id', '=', id).execute();
    const spf = rows.find((r) => r.zona === '' && r.type === 'TXT');
    const dmarc = rows.find((r) => r.zona === '_dmarc');
    await t.database.db
      .insertInto('dns_records')
      .values({ ...spf, id: undefined, value: 'v=spf1 a -all' } as never)
      .execute();
    await t.database.db
      .updateTable('dns_records')
      .set({ value: 'v=DMARC1; p=sometimes' })
      .where('id', '=', dmarc?.id as number)
      .execute();
    const data = await view();
    expect(data.spf.record).toMatchObject({ lookup: 'found', problem: 'two_records' });
    expect(data.dmarc.record.problem).toBe('syntax');
  });
});
