import { X509Certificate } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import type { SiteCertificate } from '@panel247/contract/certificates';
import type { Subdomain } from '@panel247/contract/hosting';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Pebble, startPebble } from '../../../../scripts/daemons/pebble.ts';
import { type PowerDns, startPowerDns } from '../../../../scripts/daemons/powerdns.ts';
import { startWebServers, type WebServers } from '../../../../scripts/daemons/web.ts';
import { AdminService } from '../../src/modules/admin/admin.service.ts';
import { LocalEventBus } from '../../src/modules/realtime/event-bus.ts';
import { ROUNDS } from '../../src/scheduled-rounds.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { nginxPanelConfig } from '../support/nginx-config.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

/** The serial of the certificate nginx presents for `host`, trusting only `ca`. */
function servedSerial(port: number, host: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = https.get(
      { host: '127.0.0.1', port, path: '/', servername: host, headers: { host }, ca, agent: false },
      (response) => {
        const socket = response.socket as TLSSocket;
        const serial = new X509Certificate(socket.getPeerCertificate(false).raw).serialNumber;
        response.resume();
        response.on('end', () => resolve(serial));
      },
    );
    request.on('error', reject);
  });
}

describe.each(DATABASE_KINDS)('automatic SSL of a site, from Pebble through the panel (panel on %s)', (kind) => {
  let pdns: PowerDns;
  let servers: WebServers;
  let pebble: Pebble;
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let id: number;
  const domain = `auto-${kind}.test`;

  const call = <T>(method: 'GET' | 'POST', url: string, params: Record<string, string> = {}) =>
    t.call<T>(method, url, params, { cookie });
  const certificate = async (sid: number) =>
    (await call<{ certificate: SiteCertificate | null }>('GET', `service/${id}/subdomain/${sid}/certificate/`)).body
      .data.certificate;
  /** Follows the order as the page does, until it ends. */
  const settled = async (sid: number): Promise<SiteCertificate> => {
    for (;;) {
      const state = await certificate(sid);
      if (state && (state.state === 'installed' || state.state === 'failed')) return state;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const mainSite = async () =>
    (await call<{ subdomains: Subdomain[] }>('GET', `service/${id}/subdomain/list/`)).body.data.subdomains.find(
      (site) => site.subdominio === '',
    ) as Subdomain;

  beforeAll(async () => {
    pdns = await startPowerDns();
    servers = await startWebServers();
    pebble = await startPebble({ httpPort: servers.httpPort, dnsServer: `127.0.0.1:${pdns.dnsPort}` });
    const caFile = path.join(servers.dir, 'pebble-listener.pem');
    writeFileSync(caFile, pebble.listenerCaPem);
    const homes = path.join(servers.dir, 'homes');
    mkdirSync(homes, { recursive: true, mode: 0o755 });
    chmodSync(homes, 0o755);
    t = await buildTestApp(kind, {
      config: {
        ...nginxPanelConfig(servers, homes),
        'dns.driver': 'powerdns',
        'dns.powerdnsApiUrl': pdns.apiUrl,
        'dns.powerdnsApiKey': pdns.apiKey,
        'dns.webIpv4': '127.0.0.1',
        // no AAAA: nginx listens on 127.0.0.1 alone
        'dns.defaultRecords': [
          { zona: '', type: 'NS', value: '{ns}', eliminable: false },
          { zona: '', type: 'A', value: '{web_ipv4}' },
          { zona: 'www', type: 'CNAME', value: '{domain}' },
        ],
        'acme.directoryUrl': pebble.directoryUrl,
        'acme.directoryCaFile': caFile,
        'acme.email': 'certs@provider.test',
        'acme.resolvers': [`127.0.0.1:${pdns.dnsPort}`],
        'acme.webAddresses': ['127.0.0.1'],
        // a CA that is down fails the order at once instead of after acme-client's 75 s of retries
        'acme.retryAttempts': 1,
        'acme.retryDelaySeconds': 0,
      },
    });
    account = await buildAccount(t.database.db, { domainName: domain, resources: { [domain]: { hasService: true } } });
    // the brand has its own contact at the CA (the provider's is certs@provider.test)
    await new AdminService(t.database.db, new LocalEventBus(), () => Math.floor(Date.now() / 1000)).updateBrand(
      'test-brand',
      { acmeEmail: 'certs@brand.test' },
    );
    id = account.resources[domain] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
    // the zone and its default records, published to PowerDNS on first use
    await call('GET', `service/${id}/dns/list/`);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await pebble?.stop();
    await servers?.stop();
    await pdns?.stop();
  });

  it('turns a site to automatic: the steps, then a certificate from Pebble that nginx presents', async () => {
    const site = await mainSite();
    expect(await certificate(site.id)).toBeNull();
    const started = await call<{ certificate: SiteCertificate }>(
      'POST',
      `service/${id}/subdomain/${site.id}/certificate/auto/`,
    );
    expect(started.body.system.errors).toEqual([]);
    expect(started.body.data.certificate).toMatchObject({ state: 'queued', challenge: 'http-01', wildcard: false });
    const done = await settled(site.id);
    expect(done).toMatchObject({ state: 'installed', error: '' });
    // ordered under the brand's own account, its key sealed at rest
    const accounts = await t.database.db.selectFrom('acme_accounts').select(['email', 'key_sealed']).execute();
    expect(accounts.map((row) => row.email)).toEqual(['certs@brand.test']);
    expect(accounts[0]?.key_sealed).toMatch(/^v1\./);
    expect(done.expiresAt).toBeGreaterThan(Date.now() / 1000 + 30 * 86_400);

    const installed = await mainSite();
    expect(installed.ssl.enabled).toBe(true);
    expect(installed.ssl.info?.names.sort()).toEqual([domain, `www.${domain}`]);
    const root = await pebble.root();
    for (const host of [domain, `www.${domain}`]) {
      const serial = await servedSerial(servers.httpsPort, host, root);
      expect(serial).toBe(new X509Certificate(installed.ssl.cert.cert).serialNumber);
    }
  });

  it('renews on schedule once within the window, and nginx serves the new serial with no manual step', async () => {
    const site = await mainSite();
    const before = new X509Certificate(site.ssl.cert.cert).serialNumber;
    // the installed certificate now "ends" within the renewal window
    await t.database.db
      .updateTable('site_certificates')
      .set({ expires_at: Math.floor(Date.now() / 1000) + 86_400 })
      .where('site_id', '=', site.id)
      .execute();
    // the scheduled round, sent now instead of at the next full minute
    await t.services.jobs.send(ROUNDS.certificateRenewals, {});
    const root = await pebble.root();
    let served = before;
    for (let attempt = 0; attempt < 600 && served === before; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      served = await servedSerial(servers.httpsPort, domain, root);
    }
    expect(served).not.toBe(before);
    expect((await settled(site.id)).state).toBe('installed');
  });

  it('orders a wildcard over DNS-01 through PowerDNS: the site and any name under it served, the TXT gone after', async () => {
    const created = await call<{ subdomain: Subdomain }>('POST', `service/${id}/subdomain/create/`, {
      subDomain: 'shop',
      folder: 'shop',
      SSLActive: '0',
    });
    const sid = created.body.data.subdomain.id;
    const started = await call<{ certificate: SiteCertificate }>(
      'POST',
      `service/${id}/subdomain/${sid}/certificate/auto/`,
      { challenge: 'dns-01', wildcard: '1' },
    );
    expect(started.body.system.errors).toEqual([]);
    expect(await settled(sid)).toMatchObject({ state: 'installed', challenge: 'dns-01', wildcard: true });
    const site = (await call<{ subdomain: Subdomain }>('GET', `service/${id}/subdomain/${sid}/`)).body.data.subdomain;
    expect(site.ssl.info?.names.sort()).toEqual([`*.shop.${domain}`, `shop.${domain}`]);
    expect(await servedSerial(servers.httpsPort, `shop.${domain}`, await pebble.root())).toBe(
      new X509Certificate(site.ssl.cert.cert).serialNumber,
    );
    expect(await pdns.dig(`_acme-challenge.shop.${domain}`, 'TXT')).toEqual([]);
    // a wildcard is only ever checked through DNS
    const overHttp = await call('POST', `service/${id}/subdomain/${sid}/certificate/auto/`, {
      challenge: 'http-01',
      wildcard: '1',
    });
    expect(overHttp.body.system.inputs).toEqual(['wildcard']);
  });

  it('refuses before any order what would fail: a name that does not resolve here, a CAA naming another CA', async () => {
    const created = await call<{ subdomain: Subdomain }>('POST', `service/${id}/subdomain/create/`, {
      subDomain: 'nowhere',
      folder: 'nowhere',
      SSLActive: '0',
    });
    const sid = created.body.data.subdomain.id;
    const unresolved = await call('POST', `service/${id}/subdomain/${sid}/certificate/auto/`);
    expect(unresolved.body.system.inputs).toEqual(['challenge']);
    expect(unresolved.body.system.errors[0]).toContain(`nowhere.${domain}`);
    expect(await certificate(sid)).toBeNull();

    // a name that leads elsewhere than the provider's web servers (a CDN, another host)
    await call('POST', `service/${id}/dns/create/`, { type: 'A', zona: 'nowhere', value: '192.0.2.80', ttl: '0' });
    const elsewhere = await call('POST', `service/${id}/subdomain/${sid}/certificate/auto/`);
    expect(elsewhere.body.system.errors[0]).toContain('192.0.2.80');
    const records = await call<{ dnss: { id: number; zona: string; type: string }[] }>(
      'GET',
      `service/${id}/dns/list/`,
      { filter: 'nowhere' },
    );
    const far = records.body.data.dnss.find((record) => record.zona === 'nowhere' && record.type === 'A');
    await call('POST', `service/${id}/dns/${far?.id}/delete/`);
    await call('POST', `service/${id}/dns/create/`, { type: 'A', zona: 'nowhere', value: '127.0.0.1', ttl: '0' });
    await call('POST', `service/${id}/dns/create/`, {
      type: 'CAA',
      zona: 'nowhere',
      value: '0 issue "other-ca.test"',
      ttl: '0',
    });
    const caa = await call('POST', `service/${id}/subdomain/${sid}/certificate/auto/`);
    expect(caa.body.system.inputs).toEqual(['challenge']);
    expect(caa.body.system.errors[0]).toContain('other-ca.test');
    expect(await certificate(sid)).toBeNull();
  });

  it('leaves the certificate in place and the site serving when the CA is down, and says so', async () => {
    const site = await mainSite();
    const before = new X509Certificate(site.ssl.cert.cert).serialNumber;
    await pebble.stop();
    await call('POST', `service/${id}/subdomain/${site.id}/certificate/auto/`);
    const failed = await settled(site.id);
    expect(failed.state).toBe('failed');
    expect(failed.error).toBe(
      'No se ha podido contactar con la autoridad de certificación: el certificado instalado sigue y se volverá a intentar',
    );
    const after = await mainSite();
    expect(new X509Certificate(after.ssl.cert.cert).serialNumber).toBe(before);
    expect(after.ssl.enabled).toBe(true);
  });
});
