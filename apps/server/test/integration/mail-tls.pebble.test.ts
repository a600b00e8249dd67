import { execFile } from 'node:child_process';
import { randomBytes, X509Certificate } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MailDaemons, startMailDaemons } from '../../../../scripts/daemons/mail.ts';
import { type Pebble, startPebble } from '../../../../scripts/daemons/pebble.ts';
import { type PowerDns, startPowerDns } from '../../../../scripts/daemons/powerdns.ts';
import { loadConfig } from '../../src/config.ts';
import { PowerDnsDriver } from '../../src/drivers/dns/powerdns.driver.ts';
import { EmbeddedEngine } from '../../src/jobs/embedded-engine.ts';
import { AdminService } from '../../src/modules/admin/admin.service.ts';
import { BrandService } from '../../src/modules/brand/brand.service.ts';
import { ORDER_MAIL_CERTIFICATE, workCertificateOrders } from '../../src/modules/hosting/certificate.jobs.ts';
import { createHostingService, type HostingServices } from '../../src/modules/hosting/create-hosting-service.ts';
import { LocalEventBus } from '../../src/modules/realtime/event-bus.ts';
import { buildAccount } from '../support/factories.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

/** The provider's SSL host, in its own zone on the panel's DNS server (not a customer's zone). */
const SSL_HOST = 'mail.provider-tls.test';
/** A customer's mail domain whose zone the panel hosts, under a brand without an SSL host. */
const DOMAIN = 'customer-tls.test';

/** Runs a client program; its exit code and everything it wrote (a refusal is an answer here). */
function run(file: string, args: string[], input = ''): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(file, args, { timeout: 20_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
    child.stdin?.end(input);
  });
}

/** The leaf certificate a TLS server presents for `servername`, without judging it. */
function presented(port: number, servername: string): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername, rejectUnauthorized: false }, () => {
      resolve(new X509Certificate(socket.getPeerCertificate(false).raw));
      socket.end();
    });
    socket.on('error', reject);
  });
}

/** An IMAPS session kept open: each command's tagged answer. */
async function imapsSession(port: number) {
  const socket = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false });
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  const until = async (pattern: RegExp) => {
    while (!pattern.test(received)) {
      if (socket.destroyed) throw new Error(`connection closed: ${received}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return received;
  };
  await until(/^\* OK/m);
  let tag = 0;
  return {
    async command(text: string): Promise<string> {
      const id = `t${++tag}`;
      received = '';
      socket.write(`${id} ${text}\r\n`);
      return (await until(new RegExp(`^${id} (OK|NO|BAD)`, 'm'))).trim();
    },
    close: () => socket.destroy(),
  };
}

describe("the mail daemons' certificates, ordered by the panel from a real ACME CA (Pebble) over DNS-01", () => {
  let pdns: PowerDns;
  let pebble: Pebble;
  let mail: MailDaemons;
  let database: TestDatabase;
  let hosting: HostingServices;
  let folder: string;
  let tlsDir: string;
  let postfixConfigDir: string;
  let root: string;
  let rootFile: string;
  let caFile: string;

  const configFor = (directoryUrl: string) =>
    loadConfig(
      {},
      {
        dataDir: folder,
        'dns.driver': 'powerdns',
        'dns.powerdnsApiUrl': pdns.apiUrl,
        'dns.powerdnsApiKey': pdns.apiKey,
        'mail.doveadmConfig': mail.doveadmConfig,
        'mailTls.dir': tlsDir,
        'mailTls.postfixConfigDir': postfixConfigDir,
        'acme.directoryUrl': directoryUrl,
        'acme.directoryCaFile': caFile,
        'acme.email': 'certs@provider-tls.test',
        'acme.resolvers': [`127.0.0.1:${pdns.dnsPort}`],
        'acme.caaIdentities': ['pebble.letsencrypt.org'],
        'acme.retryAttempts': 1,
        'acme.retryDelaySeconds': 0,
      },
    );
  const hostingWith = (directoryUrl: string) => {
    const config = configFor(directoryUrl);
    const dnsDriver = new PowerDnsDriver({ apiUrl: pdns.apiUrl, apiKey: pdns.apiKey, serverId: 'localhost' });
    return createHostingService(
      database.db,
      config,
      new BrandService(database.db),
      secretKey,
      () => Math.floor(Date.now() / 1000),
      undefined,
      { dnsDriver, jobs },
    );
  };
  // The work log a panel process runs: the renewal round queues the orders, its workers run them.
  let jobs: EmbeddedEngine;
  const secretKey = randomBytes(32);

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'p247-mailtls-'));
    chmodSync(folder, 0o777);
    pdns = await startPowerDns();
    const dns = new PowerDnsDriver({ apiUrl: pdns.apiUrl, apiKey: pdns.apiKey, serverId: 'localhost' });
    // the provider's own zone, on the same server but not one of the panel's
    await dns.ensureZone('provider-tls.test', ['ns1.provider-tls.test.']);
    await dns.ensureZone(DOMAIN, ['ns1.provider-tls.test.']);

    database = await createTestDatabase('sqlite', { sqliteFile: path.join(folder, 'panel.sqlite') });
    const account = await buildAccount(database.db, {
      domainName: DOMAIN,
      resources: { [DOMAIN]: { hasMail: true }, 'not-hosted-tls.test': { hasMail: true } },
    });
    // DOMAIN's zone is the panel's; not-hosted-tls.test has none here, so it gets no certificate
    await database.db
      .insertInto('dns_zones')
      .values({
        service_id: account.resources[DOMAIN] as number,
        created_at: 0,
        unpublished_since: null,
      })
      .execute();
    const admin = new AdminService(database.db, new LocalEventBus(), () => Math.floor(Date.now() / 1000));
    await admin.ensureBrand({ slug: 'provider', company: 'Provider', sslHost: SSL_HOST, isDefault: true });
    for (const file of readdirSync(folder)) chmodSync(path.join(folder, file), 0o666);

    pebble = await startPebble({ httpPort: pdns.dnsPort, dnsServer: `127.0.0.1:${pdns.dnsPort}` });
    caFile = path.join(folder, 'pebble-listener.pem');
    writeFileSync(caFile, pebble.listenerCaPem);
    root = await pebble.root();
    rootFile = path.join(folder, 'pebble-root.pem');
    writeFileSync(rootFile, root);
    // the harness's folder, with its self-signed default until the panel's first order replaces it
    mail = await startMailDaemons({ kind: 'sqlite', file: database.url as string });
    tlsDir = mail.tlsDir;
    // the harness keeps Postfix's configuration beside Dovecot's (mail/postfix, mail/dovecot)
    postfixConfigDir = path.join(path.dirname(path.dirname(mail.doveadmConfig)), 'postfix');
    jobs = new EmbeddedEngine(database.db);
    await jobs.start({ workers: true });
    hosting = hostingWith(pebble.directoryUrl);
    await workCertificateOrders(jobs, {
      site: (serviceId, siteId) => hosting.certificates.order(serviceId, siteId),
      mail: (name) => hosting.certificates.orderMail(name),
    });
  }, 120_000);
  afterAll(async () => {
    await jobs?.stop();
    await hosting?.close();
    await mail?.stop();
    await pebble?.stop();
    await pdns?.stop();
    await database?.destroy();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('orders the SSL host and the hosted domain’s imap./smtp., serves them by SNI, and keeps an open IMAP session through the reload', async () => {
    const before = await imapsSession(mail.imapsPort);
    const ordered = await hosting.certificates.renewDue();
    expect(ordered).toBe(2);
    const orders = await jobs.list({
      states: ['created', 'retry', 'active', 'completed'],
      kind: ORDER_MAIL_CERTIFICATE.name,
      limit: 10,
    });
    expect(orders.map((order) => order.key).sort()).toEqual([`imap.${DOMAIN}`, SSL_HOST].sort());
    for (let wait = 0; wait < 600; wait++) {
      const open = await jobs.list({
        states: ['created', 'retry', 'active'],
        kind: ORDER_MAIL_CERTIFICATE.name,
        limit: 10,
      });
      if (open.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const listed = await hosting.certificates.list();
    expect(listed.map(({ host, state, errorKey }) => ({ host, state, errorKey }))).toEqual([
      { host: `imap.${DOMAIN} smtp.${DOMAIN}`, state: 'installed', errorKey: '' },
      { host: SSL_HOST, state: 'installed', errorKey: '' },
    ]);
    // the session opened before the reload still answers
    expect(await before.command('NOOP')).toMatch(/OK/);
    before.close();

    // curl over implicit TLS, trusting Pebble's root alone, for the SSL host (the default certificate)
    const curl = await run('curl', [
      '-v',
      '--max-time',
      '10',
      '--cacert',
      rootFile,
      '--connect-to',
      `${SSL_HOST}:${mail.imapsPort}:127.0.0.1:${mail.imapsPort}`,
      `imaps://${SSL_HOST}:${mail.imapsPort}/`,
    ]);
    expect(curl.output).toMatch(/SSL certificate verify ok|certificate verified/i);
    expect(curl.output).toMatch(/issuer:.*Pebble/i);
    expect(curl.output).toContain(SSL_HOST);

    // STARTTLS on 143 with the domain's own name (SNI): its certificate, verified against Pebble's root
    const starttls = await run(
      'openssl',
      [
        's_client',
        '-starttls',
        'imap',
        '-connect',
        `127.0.0.1:${mail.imapPort}`,
        '-servername',
        `imap.${DOMAIN}`,
        '-CAfile',
        rootFile,
        '-verify_hostname',
        `imap.${DOMAIN}`,
        '-verify_return_error',
      ],
      'a1 LOGOUT\r\n',
    );
    expect(starttls.output).toContain('Verify return code: 0 (ok)');
    expect(starttls.output).toMatch(/issuer=.*Pebble/i);

    // Postfix's submission: the SNI table gives smtp.<domain> its certificate
    const submission = await run(
      'openssl',
      [
        's_client',
        '-starttls',
        'smtp',
        '-connect',
        `127.0.0.1:${mail.submissionPort}`,
        '-servername',
        `smtp.${DOMAIN}`,
        '-CAfile',
        rootFile,
        '-verify_hostname',
        `smtp.${DOMAIN}`,
        '-verify_return_error',
      ],
      'QUIT\r\n',
    );
    expect(submission.output).toContain('Verify return code: 0 (ok)');
    const smtps = await presented(mail.submissionsPort, SSL_HOST);
    expect(smtps.subjectAltName).toContain(`DNS:${SSL_HOST}`);
    expect(smtps.checkIssued(new X509Certificate(root)) || smtps.issuer.includes('Pebble')).toBe(true);
  });

  it('a failed renewal is listed with its reason and leaves the working certificate served', async () => {
    const served = (await presented(mail.imapsPort, SSL_HOST)).serialNumber;
    const files = readFileSync(path.join(tlsDir, 'default', 'fullchain.pem'), 'utf8');
    // a CA that does not answer (a closed port)
    const broken = hostingWith('https://127.0.0.1:9/dir');
    try {
      await broken.certificates.renewNow(SSL_HOST);
      const entry = (await broken.certificates.list()).find((row) => row.host === SSL_HOST);
      expect(entry).toMatchObject({ state: 'failed', errorKey: 'acme.error.unreachable' });
    } finally {
      await broken.close();
    }
    expect(readFileSync(path.join(tlsDir, 'default', 'fullchain.pem'), 'utf8')).toBe(files);
    expect((await presented(mail.imapsPort, SSL_HOST)).serialNumber).toBe(served);
  });
});
