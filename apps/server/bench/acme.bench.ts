/**
 * npm run bench:acme — the time from "automatic" (the certificate/auto/ call) to the new
 * certificate presented by nginx, over HTTP-01 and over DNS-01, p50 of 10 orders each (aim: under
 * 5 s each), against Pebble, nginx + PHP-FPM and PowerDNS on loopback. Each figure is printed with
 * the baselines measured in the same run, as a ratio: one plain HTTPS request to the same nginx,
 * and one fetch of Pebble's directory. A benchmark never fails: it prints and exits 0.
 */
import { X509Certificate } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { startPebble } from '../../../scripts/daemons/pebble.ts';
import { startPowerDns } from '../../../scripts/daemons/powerdns.ts';
import { startWebServers } from '../../../scripts/daemons/web.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { migrateToLatest, openDatabase } from '../src/db/database.ts';
import { AdminService, allKeys } from '../src/modules/admin/admin.service.ts';
import { LocalEventBus } from '../src/modules/realtime/event-bus.ts';
import { nginxPanelConfig } from '../test/support/nginx-config.ts';

const ORDERS = Number(process.env.BENCH_ACME_ORDERS ?? 10);
const BASELINE_SAMPLES = 50;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] as number;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;
const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));

/** The serial of the certificate nginx presents for `host` (any certificate: the figure waits for a new one). */
function servedSerial(port: number, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = https.get(
      {
        host: '127.0.0.1',
        port,
        path: '/',
        servername: host,
        headers: { host },
        rejectUnauthorized: false,
        agent: false,
      },
      (response) => {
        const raw = (response.socket as TLSSocket).getPeerCertificate(false).raw;
        response.resume();
        response.on('end', () => resolve(raw ? new X509Certificate(raw).serialNumber : ''));
      },
    );
    request.on('error', reject);
  });
}

/** GET over HTTPS trusting `ca` (Pebble's directory, as the panel's ACME client first asks for it). */
function fetchDirectory(url: string, ca: string): Promise<void> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca, agent: false }, (response) => {
        response.resume();
        response.on('end', () => resolve());
      })
      .on('error', reject);
  });
}

async function main() {
  const pdns = await startPowerDns();
  const servers = await startWebServers();
  const pebble = await startPebble({ httpPort: servers.httpPort, dnsServer: `127.0.0.1:${pdns.dnsPort}` });
  const caFile = path.join(servers.dir, 'pebble-listener.pem');
  writeFileSync(caFile, pebble.listenerCaPem);
  const homes = path.join(servers.dir, 'homes');
  mkdirSync(homes, { recursive: true, mode: 0o755 });
  chmodSync(homes, 0o755);

  const dataDir = mkdtempSync(path.join(tmpdir(), 'p247-bench-acme-'));
  const config = loadConfig(
    {},
    {
      dataDir,
      logLevel: 'silent',
      'captcha.provider': 'none',
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
      // no renewal rounds during the figures
      'acme.renewCheckSeconds': 0,
      'acme.retryAttempts': 1,
      'acme.retryDelaySeconds': 0,
    },
  );
  const { db } = openDatabase({ sqliteFile: path.join(dataDir, 'panel.sqlite') });
  await migrateToLatest(db);
  const events = new LocalEventBus();
  const { app } = await buildApp({ config, db, events, secretKey: Buffer.alloc(32, 1) });
  const now = () => Math.floor(Date.now() / 1000);
  const admin = new AdminService(db, events, now);
  await admin.ensureBrand({ slug: 'bench', company: 'Bench', isDefault: true });
  await admin.ensureAccount('bench.test', 'bench');
  await admin.ensureUser('bench.test', 'admin', 'bench password 1');
  const ids: Record<string, number> = {};
  for (const reference of ['http-bench.test', 'dns-bench.test']) {
    ids[reference] = await admin.ensureResource('bench.test', {
      reference,
      hasService: true,
      serviceExpireTs: now() + 86400,
    });
    await admin.grant('bench.test', 'admin', reference, allKeys('write'));
  }

  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const login = await fetch(`${address}/p247/user/login/`, {
    method: 'POST',
    headers: { 'x-dd-request': '1', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ domainName: 'bench.test', username: 'admin', password: 'bench password 1' }),
  });
  const cookie = login.headers.get('set-cookie')?.split(';')[0] ?? '';
  const call = async <T>(url: string, params: Record<string, string> = {}): Promise<T> => {
    const body = (await fetch(`${address}/p247/${url}`, {
      method: 'POST',
      headers: { 'x-dd-request': '1', cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params),
    }).then((response) => response.json())) as { system: { valid: boolean; errors: string[] }; data: T };
    if (!body.system.valid) throw new Error(`${url}: ${body.system.errors.join(', ')}`);
    return body.data;
  };
  const sites: Record<string, number> = {};
  for (const [reference, id] of Object.entries(ids)) {
    // the zone and its records reach PowerDNS on first use
    await call(`service/${id}/dns/list/`);
    const { subdomains } = await call<{ subdomains: { id: number; subdominio: string }[] }>(
      `service/${id}/subdomain/list/`,
    );
    sites[reference] = subdomains.find((site) => site.subdominio === '')?.id as number;
  }

  /** One order: from the call to nginx presenting a serial other than the one before. */
  async function timeOrder(reference: string, challenge: 'http-01' | 'dns-01'): Promise<number> {
    const id = ids[reference] as number;
    const sid = sites[reference] as number;
    const before = await servedSerial(servers.httpsPort, reference).catch(() => '');
    const start = performance.now();
    await call(`service/${id}/subdomain/${sid}/certificate/auto/`, { challenge, wildcard: '0' });
    for (;;) {
      const serial = await servedSerial(servers.httpsPort, reference).catch(() => '');
      if (serial !== '' && serial !== before) return performance.now() - start;
      const { certificate } = await call<{ certificate: { state: string; error: string } | null }>(
        `service/${id}/subdomain/${sid}/certificate/`,
      );
      if (certificate?.state === 'failed') throw new Error(`${reference} ${challenge}: ${certificate.error}`);
      await sleep(10);
    }
  }

  try {
    // warm-up: the ACME account and each service's first nginx configuration are made once
    await timeOrder('http-bench.test', 'http-01');
    await timeOrder('dns-bench.test', 'dns-01');
    const http: number[] = [];
    const dns: number[] = [];
    for (let i = 0; i < ORDERS; i++) {
      http.push(await timeOrder('http-bench.test', 'http-01'));
      dns.push(await timeOrder('dns-bench.test', 'dns-01'));
    }
    const plain: number[] = [];
    const directory: number[] = [];
    const listenerCa = readFileSync(caFile, 'utf8');
    for (let i = 0; i < BASELINE_SAMPLES; i++) {
      let start = performance.now();
      await servedSerial(servers.httpsPort, 'http-bench.test');
      plain.push(performance.now() - start);
      start = performance.now();
      await fetchDirectory(pebble.directoryUrl, listenerCa);
      directory.push(performance.now() - start);
    }
    const baseHttps = median(plain);
    const baseDirectory = median(directory);
    console.log(`ACME on loopback (Pebble, nginx, PowerDNS), p50 of ${ORDERS} orders each:`);
    console.log(
      `  baseline: one HTTPS request to nginx p50 ${ms(baseHttps)}; Pebble's directory fetch p50 ${ms(baseDirectory)}`,
    );
    for (const [label, values] of [
      ['HTTP-01', http],
      ['DNS-01', dns],
    ] as const) {
      const p50 = median(values);
      console.log(
        `  ${label}: "automatic" → served by nginx p50 ${ms(p50)} (min ${ms(Math.min(...values))}, max ${ms(Math.max(...values))}) = ${(p50 / baseHttps).toFixed(0)}× the HTTPS request, ${(p50 / baseDirectory).toFixed(0)}× the directory fetch; aim < 5000 ms: ${p50 < 5000 ? 'met' : 'not met'}`,
      );
    }
  } finally {
    await app.close();
    await db.destroy();
    await pebble.stop();
    await servers.stop();
    await pdns.stop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(0);
  },
);
