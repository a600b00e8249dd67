import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeNamespace, type NodeNamespace } from '../../../../scripts/daemons/netns.ts';
import { type PowerDns, startPowerDns } from '../../../../scripts/daemons/powerdns.ts';
import { PowerDnsDriver } from '../../src/drivers/dns/powerdns.driver.ts';
import { nameServersInStep } from '../../src/drivers/doctor/name-server-checks.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { until } from '../support/server-namespace.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

const isRoot = process.getuid?.() === 0;
const ZONE = 'secundario.test';
/** How long every name server may take to answer a change: the bound docs/OPERATIONS.md gives. */
const ANSWERED_WITHIN_MS = 10_000;

type One = { dns: { id: number } };

/**
 * The provider's primary PowerDNS (the panel's, outside) and a secondary on a server of its own
 * (a network namespace, answering on port 53 of its address): the secondary takes each zone the
 * primary NOTIFYs it of by AXFR (autosecondary), follows each change within the bound, and a
 * secondary that was down catches up when it starts.
 */
describe.skipIf(!isRoot && process.env.CI !== 'true')('a secondary name server on a server of its own', () => {
  let ns: NodeNamespace;
  let primary: PowerDns;
  let secondary: PowerDns;
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let serviceId: number;

  /** The answer of both name servers, once they agree on `expected` (or the bound has passed). */
  const bothAnswer = async (name: string, type: string, expected: string[]) => {
    const started = Date.now();
    const answers = await until(
      async () => ({ primary: await primary.dig(name, type), secondary: await secondary.dig(name, type) }),
      (both) =>
        JSON.stringify(both.primary) === JSON.stringify(expected) &&
        JSON.stringify(both.secondary) === JSON.stringify(expected),
      ANSWERED_WITHIN_MS,
    );
    return { ...answers, ms: Date.now() - started };
  };
  const secondaryAddress = () => `${ns.address}:53`;
  /** doctor's "name servers in step", with the secondary named as PANEL_DOCTOR_SECONDARIES would. */
  const inStep = () =>
    nameServersInStep({
      apiUrl: primary.apiUrl,
      apiKey: primary.apiKey,
      serverId: 'localhost',
      secondaries: [secondaryAddress()],
      graceMs: 1000,
    });
  const create = async (params: Record<string, string>) => {
    const { body } = await t.call<One>(
      'POST',
      `service/${serviceId}/dns/create/`,
      { ttl: '0', priority: '0', ...params },
      { cookie },
    );
    expect(body.system.errors).toEqual([]);
    return body.data.dns;
  };
  const save = async (id: number, value: string) => {
    const { body } = await t.call('POST', `service/${serviceId}/dns/${id}/save/`, { value, ttl: '600' }, { cookie });
    expect(body.system.errors).toEqual([]);
  };

  beforeAll(async () => {
    ns = await createNodeNamespace('p247ns2', 25);
    // the primary answers the panel on loopback and its secondaries on port 53 of the link's host end
    primary = await startPowerDns(
      undefined,
      { kind: 'sqlite' },
      {
        role: 'primary',
        listen: `${ns.hostAddress}:53`,
        secondaries: [`${ns.address}:53`],
      },
    );
    secondary = await startPowerDns(
      undefined,
      { kind: 'sqlite' },
      {
        role: 'secondary',
        namespace: ns,
        primary: ns.hostAddress,
        nameserver: 'ns2.provider.test',
      },
    );
    t = await buildTestApp('sqlite', {
      config: {
        'dns.driver': 'powerdns',
        'dns.powerdnsApiUrl': primary.apiUrl,
        'dns.powerdnsApiKey': primary.apiKey,
        'dns.powerdnsZoneKind': 'primary',
        'dns.nameservers': ['ns1.provider.test', 'ns2.provider.test'],
        'dns.powerdnsTimeoutSeconds': 30,
      },
    });
    account = await buildAccount(t.database.db, { domainName: ZONE });
    serviceId = account.resources[ZONE] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await secondary?.stop();
    await primary?.stop();
    await ns?.destroy();
  });

  it('takes a new zone from the primary and answers it at its own address', async () => {
    await create({ type: 'A', zona: 'sitio', value: '198.51.100.80' });
    const answered = await bothAnswer(`sitio.${ZONE}`, 'A', ['198.51.100.80']);
    expect(answered.secondary).toEqual(['198.51.100.80']);
    expect((await secondary.dig(ZONE, 'NS')).sort()).toEqual(['ns1.provider.test.', 'ns2.provider.test.']);
    // the same zone, serial and all
    expect(await secondary.dig(ZONE, 'SOA')).toEqual(await primary.dig(ZONE, 'SOA'));
  });

  it('answers a change at every name server within the bound', async () => {
    const record = await create({ type: 'A', zona: 'cambia', value: '198.51.100.81' });
    await bothAnswer(`cambia.${ZONE}`, 'A', ['198.51.100.81']);
    await save(record.id, '198.51.100.82');
    const answered = await bothAnswer(`cambia.${ZONE}`, 'A', ['198.51.100.82']);
    expect(answered.ms).toBeLessThan(ANSWERED_WITHIN_MS);
  });

  it('makes a zone from before the secondaries a primary one when the panel next publishes it, and the secondary takes it', async () => {
    const before = 'antiguo.test';
    // made by a panel whose PowerDNS had no secondaries yet
    const alone = new PowerDnsDriver({ apiUrl: primary.apiUrl, apiKey: primary.apiKey, serverId: 'localhost' });
    await alone.ensureZone(before, ['ns1.provider.test', 'ns2.provider.test']);
    await alone.replaceRRsets(before, [{ name: `viejo.${before}.`, type: 'A', ttl: 300, contents: ['198.51.100.90'] }]);
    expect(await primary.dig(`viejo.${before}`, 'A')).toEqual(['198.51.100.90']);
    expect(await secondary.dig(`viejo.${before}`, 'A')).toEqual([]);
    const asPrimary = new PowerDnsDriver({
      apiUrl: primary.apiUrl,
      apiKey: primary.apiKey,
      serverId: 'localhost',
      primary: true,
    });
    await asPrimary.ensureZone(before, ['ns1.provider.test', 'ns2.provider.test']);
    await bothAnswer(`viejo.${before}`, 'A', ['198.51.100.90']);
  });

  it('catches up when it starts again after missing changes while it was down', async () => {
    const record = await create({ type: 'TXT', zona: 'ausente', value: 'antes' });
    await bothAnswer(`ausente.${ZONE}`, 'TXT', ['"antes"']);
    await secondary.stop();
    await save(record.id, 'durante');
    expect(await primary.dig(`ausente.${ZONE}`, 'TXT')).toEqual(['"durante"']);
    // doctor names the secondary that does not answer
    const down = await inStep();
    expect(down).toMatchObject({ ok: false });
    expect(down.detail).toContain(secondaryAddress());
    await secondary.start();
    await bothAnswer(`ausente.${ZONE}`, 'TXT', ['"durante"']);
    expect(await secondary.dig(ZONE, 'SOA')).toEqual(await primary.dig(ZONE, 'SOA'));
    expect(await inStep()).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/^1 secondary\(ies\) answer \d+ zone/),
    });
  });

  it('serves a signed zone signed at the secondary too: the primary’s keys and signatures travel with the zone', async () => {
    const signed = await t.call('POST', `service/${serviceId}/dns/dnssec/sign/`, {}, { cookie });
    expect(signed.body.system.errors).toEqual([]);
    const dnssec = ['+dnssec', '+norec', '+noall', '+answer'];
    const signatures = async (server: PowerDns) =>
      (await server.dig(ZONE, 'SOA', dnssec)).filter((line) => /\sRRSIG\s+SOA\s/.test(line));
    const answered = await until(
      async () => ({ primary: await signatures(primary), secondary: await signatures(secondary) }),
      (both) => both.secondary.length > 0 && JSON.stringify(both.secondary) === JSON.stringify(both.primary),
      ANSWERED_WITHIN_MS,
    );
    expect(answered.secondary.length).toBeGreaterThan(0);
    expect((await secondary.dig(ZONE, 'DNSKEY')).sort()).toEqual((await primary.dig(ZONE, 'DNSKEY')).sort());
    // a change after signing is signed where it is answered, at both
    await create({ type: 'A', zona: 'firmado', value: '198.51.100.83' });
    await bothAnswer(`firmado.${ZONE}`, 'A', ['198.51.100.83']);
    const rrsig = (lines: string[]) => lines.some((line) => /\sRRSIG\s+A\s/.test(line));
    expect(rrsig(await secondary.dig(`firmado.${ZONE}`, 'A', dnssec))).toBe(true);
  });
});
