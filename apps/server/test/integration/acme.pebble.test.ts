import { X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Pebble, startPebble } from '../../../../scripts/daemons/pebble.ts';
import { type PowerDns, startPowerDns } from '../../../../scripts/daemons/powerdns.ts';
import { startWebServers, type WebServers } from '../../../../scripts/daemons/web.ts';
import {
  AcmeDriver,
  type ChallengeResponder,
  createAccountKey,
  type OrderStep,
  trustDirectoryCa,
} from '../../src/drivers/acme/acme.driver.ts';
import { DnsChallengeRecords } from '../../src/drivers/acme/dns-challenges.ts';
import { HttpChallengeFiles } from '../../src/drivers/acme/http-challenges.ts';
import { PowerDnsDriver } from '../../src/drivers/dns/powerdns.driver.ts';
import { NginxWebDriver } from '../../src/drivers/web/nginx.driver.ts';
import type { WebService, WebSsl } from '../../src/drivers/web/web.driver.ts';

const ZONE = 'acme.test';

/** An HTTPS GET to the test nginx for `host` (SNI), trusting only `ca`; the certificate presented and the body. */
function fetchOverTls(port: number, host: string, ca: string): Promise<{ body: string; certificate: X509Certificate }> {
  return new Promise((resolve, reject) => {
    const request = https.get(
      { host: '127.0.0.1', port, path: '/', servername: host, headers: { host }, ca, agent: false },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => {
          const socket = response.socket as import('node:tls').TLSSocket;
          resolve({ body, certificate: new X509Certificate(socket.getPeerCertificate(false).raw) });
        });
      },
    );
    request.on('error', reject);
  });
}

describe('certificates from a real ACME CA (Pebble) over HTTP-01 through nginx and DNS-01 through PowerDNS', () => {
  let pdns: PowerDns;
  let dns: PowerDnsDriver;
  let servers: WebServers;
  let web: NginxWebDriver;
  let pebble: Pebble;
  let acme: AcmeDriver;
  let home: string;

  const service = (sites: { subdomain: string; ssl?: WebSsl }[]): WebService => ({
    serviceId: 1,
    domain: ZONE,
    home,
    phpVersion: '8.2',
    parking: false,
    sites: sites.map((site) => ({ ...site, folder: '' })),
    redirections: [],
  });

  beforeAll(async () => {
    pdns = await startPowerDns();
    dns = new PowerDnsDriver({ apiUrl: pdns.apiUrl, apiKey: pdns.apiKey, serverId: 'localhost' });
    await dns.ensureZone(ZONE, [`ns1.${ZONE}.`]);
    await dns.replaceRRsets(ZONE, [
      { name: `${ZONE}.`, type: 'A', ttl: 60, contents: ['127.0.0.1'] },
      { name: `www.${ZONE}.`, type: 'A', ttl: 60, contents: ['127.0.0.1'] },
    ]);
    servers = await startWebServers();
    web = new NginxWebDriver(servers.driverOptions);
    home = path.join(servers.dir, 'homes', ZONE);
    mkdirSync(home, { recursive: true });
    for (const folder of ['homes', `homes/${ZONE}`]) chmodSync(path.join(servers.dir, folder), 0o755);
    writeFileSync(path.join(home, 'index.html'), 'served over TLS\n');
    chmodSync(path.join(home, 'index.html'), 0o644);
    await web.apply(service([{ subdomain: '' }]));
    pebble = await startPebble({ httpPort: servers.httpPort, dnsServer: `127.0.0.1:${pdns.dnsPort}` });
    trustDirectoryCa(pebble.listenerCaPem);
    acme = new AcmeDriver({
      directoryUrl: pebble.directoryUrl,
      accountKeyPem: await createAccountKey(),
      email: 'certs@acme.test',
    });
  }, 60_000);
  afterAll(async () => {
    await pebble?.stop();
    await servers?.stop();
    await pdns?.stop();
  });

  it('issues a certificate over HTTP-01 (the tokens served by nginx), which nginx then presents', async () => {
    const challenges = new HttpChallengeFiles(servers.driverOptions.acmeChallengeDir);
    const steps: OrderStep[] = [];
    const issued = await acme.issue([ZONE, `www.${ZONE}`], challenges, async (step) => {
      steps.push(step);
    });
    expect(steps).toEqual(['ordered', 'validating', 'issued']);
    const leaf = new X509Certificate(issued.certPem);
    expect(leaf.subjectAltName).toContain(`DNS:${ZONE}`);
    expect(leaf.subjectAltName).toContain(`DNS:www.${ZONE}`);
    expect(issued.chainPem).toContain('BEGIN CERTIFICATE');
    // the tokens are gone once the order is over
    const tokens = path.join(servers.driverOptions.acmeChallengeDir, '.well-known', 'acme-challenge');
    expect(existsSync(tokens) ? readdirSync(tokens) : []).toEqual([]);

    await web.apply(service([{ subdomain: '', ssl: issued }]));
    const root = await pebble.root();
    for (const host of [ZONE, `www.${ZONE}`]) {
      const answer = await fetchOverTls(servers.httpsPort, host, root);
      expect(answer.body).toBe('served over TLS\n');
      expect(answer.certificate.serialNumber).toBe(leaf.serialNumber);
    }
  });

  it('issues a wildcard over DNS-01: the TXT is in PowerDNS during the order and gone after; two sub-names served', async () => {
    // the panel's DNS-01 answers, watched with dig while the order runs
    const records = new DnsChallengeRecords(dns, ZONE);
    const seen: string[][] = [];
    const watching: ChallengeResponder = {
      type: 'dns-01',
      present: async (name, token, value) => {
        await records.present(name, token, value);
        seen.push(await pdns.dig(`_acme-challenge.${ZONE}`, 'TXT'));
      },
      remove: (name, token, value) => records.remove(name, token, value),
    };
    const issued = await acme.issue([`*.${ZONE}`], watching);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.[0]).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(await pdns.dig(`_acme-challenge.${ZONE}`, 'TXT')).toEqual([]);
    const leaf = new X509Certificate(issued.certPem);
    expect(leaf.subjectAltName).toBe(`DNS:*.${ZONE}`);

    await web.apply(
      service([
        { subdomain: 'shop', ssl: issued },
        { subdomain: 'blog', ssl: issued },
      ]),
    );
    const root = await pebble.root();
    for (const host of [`shop.${ZONE}`, `blog.${ZONE}`]) {
      const answer = await fetchOverTls(servers.httpsPort, host, root);
      expect(answer.certificate.serialNumber).toBe(leaf.serialNumber);
    }
  });

  it("binds the account to the CA's own (External Account Binding) when the CA requires it", async () => {
    const kid = 'provider-kid-1';
    const hmacKey = 'zWNDZM6eQGHWpSRTPal5eIUYFTu7EajVIoguysqZ9wG44nMEtx3MUAsUDkMTQ12W';
    const binding = await startPebble({
      httpPort: servers.httpPort,
      dnsServer: `127.0.0.1:${pdns.dnsPort}`,
      externalAccountKeys: { [kid]: hmacKey },
    });
    try {
      trustDirectoryCa(binding.listenerCaPem);
      // the main site served again (the wildcard case left only sub-names)
      await web.apply(service([{ subdomain: '' }]));
      const challenges = new HttpChallengeFiles(servers.driverOptions.acmeChallengeDir);
      const unbound = new AcmeDriver({ directoryUrl: binding.directoryUrl, accountKeyPem: await createAccountKey() });
      const refused: { detail?: string } = await unbound.issue([ZONE], challenges).then(
        () => ({}),
        (error: { detail?: string }) => error,
      );
      expect(refused.detail).toContain(
        "requires newAccount requests must include a value for the 'externalAccountBinding' field",
      );
      const bound = new AcmeDriver({
        directoryUrl: binding.directoryUrl,
        accountKeyPem: await createAccountKey(),
        externalAccountBinding: { kid, hmacKey },
      });
      const issued = await bound.issue([ZONE], challenges);
      expect(new X509Certificate(issued.certPem).subjectAltName).toBe(`DNS:${ZONE}`);
    } finally {
      await binding.stop();
      trustDirectoryCa(pebble.listenerCaPem);
    }
  });

  it('says why the CA refused: a name that does not lead to this web server fails its HTTP-01 check', async () => {
    const challenges = new HttpChallengeFiles(servers.driverOptions.acmeChallengeDir);
    await dns.replaceRRsets(ZONE, [{ name: `away.${ZONE}.`, type: 'A', ttl: 60, contents: ['127.0.0.2'] }]);
    const failure = await acme.issue([`away.${ZONE}`], challenges).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as { messageKey?: string }).messageKey).toBe('acme.error.ca');
  });
});
