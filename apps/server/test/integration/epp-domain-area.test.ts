import type { ActivityListData } from '@panel247/contract/activity';
import type { DnssecEntry, DomainData, GlueRecord } from '@panel247/contract/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBinary } from '../../../../scripts/daemons/daemon-harness.ts';
import { SecretBox } from '../../src/crypto/secret-box.ts';
import { translate } from '../../src/i18n/messages.ts';
import { RegistriesService } from '../../src/modules/registries/registries.service.ts';
import { ROUNDS } from '../../src/scheduled-rounds.ts';
import { type EppRegistryServer, startEppRegistry } from '../support/epp-registry/epp-registry-server.ts';
import { type RegistryCertificates, registryCertificates } from '../support/epp-registry/registry-certificates.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const REGISTRAR = { id: 'panel247-api', password: 'api-secret-1' };

const CONTACT = {
  isOrg: '0',
  firstName: 'Ana',
  lastName: 'García',
  identNumber: '12345678Z',
  orgName: '',
  email: 'ana@example.com',
  phone: '+34.912345678',
  postalCode: '28013',
  country: 'ES',
  state: 'M',
  city: 'Madrid',
  address: 'Calle Mayor 1',
  mode: 'only_domain',
};

/**
 * The domain area through the API with PANEL_REGISTRY_DRIVER=epp: each action reaches the test
 * registry (every frame checked against the RFCs' schemas) and the view reads it back; a refusal
 * leaves the panel as it was, with the registry's code in the customer's words.
 */
describe('the domain area at an EPP registry', () => {
  let certs: RegistryCertificates;
  let registry: EppRegistryServer;
  let t: TestApp;
  let database: TestDatabase;
  let account: BuiltAccount;
  let cookie: string;
  let id: number;

  beforeAll(async () => {
    requireBinary('xmllint', 'libxml2-utils');
    certs = await registryCertificates();
    registry = await startEppRegistry({
      cert: certs.server.cert,
      key: certs.server.key,
      ca: certs.ca,
      registrars: [REGISTRAR],
    });
    // the registry is configured before the panel starts, as a provider does it
    database = await createTestDatabase('sqlite');
    await new RegistriesService(database.db, new SecretBox(TEST_SECRET_KEY, 'registry-password'), () => 0).add(
      {
        name: 'test-es',
        tlds: ['es'],
        host: 'localhost',
        port: registry.port,
        certFile: certs.files.clientCert,
        keyFile: certs.files.clientKey,
        caFile: certs.files.ca,
        clientId: REGISTRAR.id,
        hostObjects: true,
        sessions: 2,
        ratePerSecond: 100,
      },
      REGISTRAR.password,
    );
    t = await buildTestApp('sqlite', {
      database,
      config: {
        'registry.driver': 'epp',
        'registry.cacheSeconds': 0,
        'dns.nameservers': ['ns1.provider.test', 'ns2.provider.test'],
        'registry.resolvers': ['127.0.0.1:9'],
      },
    });
    account = await buildAccount(t.database.db, {
      domainName: 'tienda.es',
      resources: { 'tienda.es': { hasDomain: true, hasService: true } },
    });
    id = account.resources['tienda.es'] as number;
    registry.state.addDomain('tienda.es', REGISTRAR.id, {
      nameservers: ['ns1.provider.test', 'ns2.provider.test'],
      authInfo: 'Registry-Code-1',
    });
    cookie = await t.login(account.domainName, account.username, account.password);
    // the custom name servers resolve through the panel's own zone
    for (const [zona, value] of [
      ['ns1', '192.0.2.1'],
      ['ns2', '192.0.2.2'],
    ] as const) {
      await t.call('POST', `service/${id}/dns/create/`, { type: 'A', zona, value }, { cookie });
      // and their glue: the registry holds a host under the domain only with its address
      const glue = await t.call(
        'POST',
        `domain/${id}/gluerecord/create/`,
        { name: zona, ip: value, ipv6: '' },
        { cookie },
      );
      expect(glue.body.system.valid, glue.body.system.errors.join()).toBe(true);
    }
  });
  afterAll(async () => {
    await t?.close();
    await database?.destroy();
    await registry?.close();
    await certs?.remove();
  });

  const view = async () => (await t.call<DomainData>('GET', `domain/${id}/`, {}, { cookie })).body.data.domain;
  const atRegistry = () => registry.state.domains.get('tienda.es');

  it('shows what the registry holds: name servers, locks, expiry', async () => {
    expect(await view()).toMatchObject({
      dns: { servers: ['ns1.provider.test', 'ns2.provider.test'] },
      blocked: false,
      transferBlock: false,
      whoisPrivacy: false,
      expireTS: Math.floor(Date.UTC(2030, 0, 1) / 1000),
    });
    const code = await t.call<{ authCode: string }>('GET', `domain/${id}/authcode/`, {}, { cookie });
    expect(code.body.data.authCode).toBe('Registry-Code-1');
  });

  it('locks the domain at the registry; while locked a change is refused in the customer’s words and nothing changes', async () => {
    const locked = await t.call<{ domain: DomainData['domain'] }>('POST', `domain/${id}/toggle/block/`, {}, { cookie });
    expect(locked.body.data.domain.blocked).toBe(true);
    expect(atRegistry()?.statuses.has('clientUpdateProhibited')).toBe(true);
    // the activity log keeps the registry's transaction ids of the change
    const log = await t.call<ActivityListData>('GET', 'activity/list/', { resource: String(id) }, { cookie });
    const lines = log.body.data.entries[0]?.changes.filter((c) => c.field === 'registry').map((c) => c.after ?? '');
    // (the reads it took too: every command the call sent)
    expect(lines?.some((l) => l.startsWith('test-es domain:info 1000 '))).toBe(true);
    const line = lines?.find((l) => l.includes(' domain:update '));
    expect(line).toMatch(/^test-es domain:update 1000 \S+ SV-[0-9a-f]+$/);
    const clTRID = line?.split(' ')[3];
    expect(registry.commands.some((c) => c.command === 'domain:update' && c.clTRID === clTRID)).toBe(true);

    const refused = await t.call(
      'POST',
      `domain/${id}/dnsedit/`,
      { 'default-ns': '0', 'dns[]': ['ns1.tienda.es', 'ns2.tienda.es'] },
      { cookie },
    );
    expect(refused.body.system.valid).toBe(false);
    expect(refused.body.system.errors).toEqual([translate('es', 'registry.epp.2304')]);
    expect(atRegistry()?.nameservers.map((h) => h.name)).toEqual(['ns1.provider.test', 'ns2.provider.test']);
    expect((await view()).dns).toMatchObject({
      mode: 'defaultDNS',
      servers: ['ns1.provider.test', 'ns2.provider.test'],
    });

    const unlocked = await t.call<{ domain: DomainData['domain'] }>(
      'POST',
      `domain/${id}/toggle/block/`,
      {},
      { cookie },
    );
    expect(unlocked.body.data.domain.blocked).toBe(false);
    expect(atRegistry()?.statuses.has('clientUpdateProhibited')).toBe(false);
  });

  it('sets custom name servers at the registry (host objects made) and reads them back', async () => {
    const saved = await t.call<{ domain: DomainData['domain'] }>(
      'POST',
      `domain/${id}/dnsedit/`,
      { 'default-ns': '0', 'dns[]': ['ns1.tienda.es', 'ns2.tienda.es'] },
      { cookie },
    );
    expect(saved.body.system.valid, saved.body.system.errors.join()).toBe(true);
    expect(atRegistry()?.nameservers.map((h) => h.name)).toEqual(['ns1.tienda.es', 'ns2.tienda.es']);
    expect(registry.state.hosts.has('ns1.tienda.es')).toBe(true);
    expect((await view()).dns.servers).toEqual(['ns1.tienda.es', 'ns2.tienda.es']);
  });

  it('creates, changes and deletes glue as hosts at the registry', async () => {
    const created = await t.call<{ gluerecords: GlueRecord[] }>(
      'POST',
      `domain/${id}/gluerecord/create/`,
      { name: 'ns3', ip: '192.0.2.30', ipv6: '' },
      { cookie },
    );
    expect(created.body.system.valid, created.body.system.errors.join()).toBe(true);
    expect(registry.state.hosts.get('ns3.tienda.es')?.addresses).toEqual([{ ip: 'v4', address: '192.0.2.30' }]);
    const glueId = created.body.data.gluerecords.find((glue) => glue.name === 'ns3.tienda.es')?.id;
    await t.call('POST', `domain/${id}/gluerecord/${glueId}/save/`, { ip: '192.0.2.31', ipv6: '' }, { cookie });
    expect(registry.state.hosts.get('ns3.tienda.es')?.addresses).toEqual([{ ip: 'v4', address: '192.0.2.31' }]);
    await t.call('POST', `domain/${id}/gluerecord/${glueId}/delete/`, {}, { cookie });
    expect(registry.state.hosts.has('ns3.tienda.es')).toBe(false);
  });

  it('sets the transfer lock and whois privacy at the registry', async () => {
    for (const toggle of ['transferblock', 'whoisprivacy']) {
      const answer = await t.call('POST', `domain/${id}/toggle/${toggle}/`, {}, { cookie });
      expect(answer.body.system.valid, answer.body.system.errors.join()).toBe(true);
    }
    expect(atRegistry()?.statuses.has('clientTransferProhibited')).toBe(true);
    expect(registry.state.contacts.get(atRegistry()?.registrant ?? '')?.disclosed).toBe(false);
    expect(await view()).toMatchObject({ transferBlock: true, whoisPrivacy: true });
  });

  it('adds and removes DS data at the registry; the list reads the registry’s DS, one added there included', async () => {
    const digest = 'ab'.repeat(32);
    const created = await t.call(
      'POST',
      `domain/${id}/dnssec/create/`,
      { keytag: '4242', algorithm: '13', digesttype: '2', digest },
      { cookie },
    );
    expect(created.body.system.valid, created.body.system.errors.join()).toBe(true);
    expect(atRegistry()?.ds).toEqual([{ keyTag: 4242, alg: 13, digestType: 2, digest: digest.toUpperCase() }]);
    // a DS the registry got another way (its own web form) is in the panel's list too
    atRegistry()?.ds.push({ keyTag: 777, alg: 8, digestType: 2, digest: 'CD'.repeat(32) });
    const list = async () =>
      (await t.call<{ dnssec: DnssecEntry[] }>('GET', `domain/${id}/dnssec/list/`, {}, { cookie })).body.data.dnssec;
    const both = await list();
    expect(both.map((ds) => ds.keytag).sort((a, b) => a - b)).toEqual([777, 4242]);
    const ours = both.find((ds) => ds.keytag === 4242);
    await t.call('POST', `domain/${id}/dnssec/${ours?.id}/delete/`, {}, { cookie });
    expect(atRegistry()?.ds.map((ds) => ds.keyTag)).toEqual([777]);
    // removed at the registry behind the panel's back: gone from the list
    if (atRegistry()) (atRegistry() as { ds: unknown[] }).ds = [];
    expect(await list()).toEqual([]);
  });

  it('contacts: the holder’s new data changes its contact object; a new holder is named; a registry that refuses it leaves the panel as it was', async () => {
    const save = (path: string, params: Record<string, string>) =>
      t.call<DomainData>('POST', `domain/${id}/${path}`, params, { cookie });
    const holder = () => registry.state.contacts.get(atRegistry()?.registrant ?? '');
    const first = atRegistry()?.registrant;
    // a new holder (the registry had 'Registrant'): a new contact object named registrant
    const named = await save('owner/save/', { ...CONTACT, type: 'registrant' });
    expect(named.body.system.valid, named.body.system.errors.join()).toBe(true);
    expect(atRegistry()?.registrant).not.toBe(first);
    expect(holder()).toMatchObject({ name: 'Ana García', city: 'Madrid', email: 'ana@example.com' });
    // the same holder moves: its object changes in place, no change of holder at the registry
    const second = atRegistry()?.registrant;
    const moved = await save('owner/save/', {
      ...CONTACT,
      type: 'registrant',
      address: 'Carrer Gran 2',
      city: 'Barcelona',
      state: 'B',
      postalCode: '08001',
    });
    expect(moved.body.system.valid, moved.body.system.errors.join()).toBe(true);
    expect(atRegistry()?.registrant).toBe(second);
    expect(holder()).toMatchObject({ name: 'Ana García', city: 'Barcelona', street: ['Carrer Gran 2'] });
    // a registry where a change of holder is a trade refuses it: the panel keeps the holder
    registry.rules.holderChange = false;
    try {
      const refused = await save('owner/save/', {
        ...CONTACT,
        type: 'registrant',
        isOrg: '1',
        orgName: 'Otra S.L.',
        identNumber: 'B12345674',
      });
      expect(refused.body.system.valid).toBe(false);
      expect(refused.body.system.errors).toEqual([translate('es', 'registry.epp.2306')]);
      expect(atRegistry()?.registrant).toBe(second);
      const after = await t.call<DomainData>('GET', `domain/${id}/`, {}, { cookie });
      expect(after.body.data.registrant).toMatchObject({ type: 'individual', name: 'Ana García', city: 'Barcelona' });
    } finally {
      registry.rules.holderChange = true;
    }
    // the other roles: a contact object of their own, named per role
    const admin = await save('contacts/save/', { ...CONTACT, type: 'admin', firstName: 'Pau', mode: 'only_contact' });
    expect(admin.body.system.valid, admin.body.system.errors.join()).toBe(true);
    const adminId = atRegistry()?.contacts.find((c) => c.type === 'admin')?.id ?? '';
    expect(registry.state.contacts.get(adminId)?.name).toBe('Pau García');
  });

  it('registry sync reports what changed at the registry behind the panel’s back, and imports it unless a dry run', async () => {
    const sync = (dryRun: boolean) => t.services.domains.registrySync.syncAll({ dryRun });
    // the panel's copy starts from its own records (the expiry it was sold with): a first sync aligns it
    await sync(false);
    expect((await sync(true)).map((o) => o.outcome)).toEqual(['same']);
    const domain = atRegistry();
    if (!domain) throw new Error('no domain');
    domain.nameservers = [
      { name: 'ns1.tienda.es', addresses: [] },
      { name: 'ns9.elsewhere.example', addresses: [] },
    ];
    domain.statuses.add('clientTransferProhibited');
    domain.authInfo = 'Changed-At-Registry-7';
    domain.ds = [{ keyTag: 9, alg: 13, digestType: 2, digest: 'EF'.repeat(32) }];
    const host = registry.state.hosts.get('ns2.tienda.es');
    if (host) host.addresses = [{ ip: 'v4', address: '192.0.2.99' }];
    domain.expiresAt = new Date(Date.UTC(2031, 5, 1));

    const report = await sync(true);
    expect(report[0]?.outcome).toBe('drifted');
    expect(report[0]?.drifts.map((d) => d.field).sort()).toEqual(['authCode', 'ds', 'expiry', 'glue', 'nameservers']);
    expect(report[0]?.drifts.find((d) => d.field === 'authCode')).toEqual({
      field: 'authCode',
      panel: '(kept)',
      registry: '(another)',
    });
    // a dry run imports nothing: the same drift again
    expect((await sync(true))[0]?.drifts).toHaveLength(5);

    expect((await sync(false))[0]?.outcome).toBe('drifted');
    expect((await sync(true)).map((o) => o.outcome)).toEqual(['same']);
    const glue = await t.call<{ gluerecords: GlueRecord[] }>('GET', `domain/${id}/gluerecord/list/`, {}, { cookie });
    expect(glue.body.data.gluerecords.find((g) => g.name === 'ns2.tienda.es')?.ip).toBe('192.0.2.99');
    const dnsInit = await t.call<{ domainDNSs: string[] }>('GET', `domains/${id}/dnsinit/`, {}, { cookie });
    expect(dnsInit.body.data.domainDNSs).toEqual(['ns1.tienda.es', 'ns9.elsewhere.example']);
  });

  it('a transfer away on the poll queue shows on the domain once the poll round has read it; the queue is acknowledged', async () => {
    const actionAt = new Date(Date.now() + 5 * 86400_000);
    registry.state.requestTransfer('tienda.es', 'other-registrar', actionAt);
    await t.services.jobs.send(ROUNDS.registryPoll, {});
    const deadline = Date.now() + 30_000;
    let domain = await view();
    while (!domain.transferOut && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      domain = await view();
    }
    expect(domain).toMatchObject({
      status: 'pendingTransfer',
      transferOut: {
        state: 'pending',
        requestedBy: 'other-registrar',
        actionAt: Math.floor(actionAt.getTime() / 1000),
      },
    });
    expect(registry.state.queues.get(REGISTRAR.id)).toEqual([]);

    // the registry completes it: the domain is the other registrar's, shown from the panel's last copy
    registry.state.approveTransfer('tienda.es');
    expect(await t.services.domains.registryMessages.pollAll()).toBe(1);
    expect(await view()).toMatchObject({
      status: 'transferredOut',
      transferOut: { state: 'serverApproved', requestedBy: 'other-registrar' },
      dns: { servers: ['ns1.tienda.es', 'ns9.elsewhere.example'] },
    });
  });

  it('sent only frames the RFCs’ schemas accept, and got only such answers', () => {
    expect(registry.problems).toEqual([]);
  });
});
