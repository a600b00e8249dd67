import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../../../scripts/test-support/self-signed-certificate.ts';
import { SecretBox } from '../../src/crypto/secret-box.ts';
import type { ChallengeResponder, IssuedCertificate } from '../../src/drivers/acme/acme.driver.ts';
import type { DnsDriver, RRset } from '../../src/drivers/dns/dns.driver.ts';
import { MailTlsDriver } from '../../src/drivers/mail-tls/mail-tls.driver.ts';
import type { Executed } from '../../src/drivers/users/system.driver.ts';
import { DaemonError } from '../../src/errors.ts';
import { AdminService } from '../../src/modules/admin/admin.service.ts';
import { MailCertificateService } from '../../src/modules/hosting/certificate-mail.service.ts';
import { LocalEventBus } from '../../src/modules/realtime/event-bus.ts';
import { buildAccount } from '../support/factories.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/test-database.ts';

/** A certificate for `names` that ends in `days` (openssl, self-signed: the CA is faked here). */
async function certificateFor(names: string[], days: number): Promise<IssuedCertificate> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mail-cert-'));
  try {
    await selfSignedCertificate({
      files: { cert: path.join(dir, 'cert.pem'), key: path.join(dir, 'key.pem') },
      subject: `/CN=${names[0]}`,
      days,
      extra: ['-addext', `subjectAltName=${names.map((name) => `DNS:${name}`).join(',')}`],
    });
    return {
      certPem: readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
      chainPem: '',
      keyPem: readFileSync(path.join(dir, 'key.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** PowerDNS as far as DNS-01 needs it: the zones it holds and the TXT records written. */
class FakeDns implements Pick<DnsDriver, 'publishesZones' | 'readZone' | 'replaceRRsets'> {
  readonly publishesZones = true;
  readonly written: string[] = [];
  constructor(private readonly zones: string[]) {}
  async readZone(zone: string): Promise<RRset[] | undefined> {
    return this.zones.includes(zone) ? [] : undefined;
  }
  async replaceRRsets(zone: string, rrsets: RRset[]): Promise<void> {
    for (const rrset of rrsets) this.written.push(`${zone} ${rrset.name} ${rrset.contents.length}`);
  }
}

describe.each(DATABASE_KINDS)('mail certificates: which, when, and a failure (panel on %s)', (kind) => {
  let database: TestDatabase;
  let tlsDir: string;
  // the fake CA issues for 90 days from the real clock
  let now = Math.floor(Date.now() / 1000);
  let dns: FakeDns;
  const orders: string[][] = [];
  let failWith: Error | undefined;
  let service: MailCertificateService;
  const keys = new SecretBox(randomBytes(32), 'mail-tls-key');
  const reloads: string[] = [];

  const fakeSystem = async (file: string, args: string[]): Promise<Executed> => {
    if (file === 'postmap') {
      const source = (args.at(-1) as string).replace(/^hash:/, '');
      writeFileSync(`${source}.db`, readFileSync(source));
    } else reloads.push(file);
    return { code: 0, stdout: '', stderr: '' };
  };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    tlsDir = mkdtempSync(path.join(tmpdir(), 'mail-tls-api-'));
    // a brand without an SSL host: its mail domains with a zone here get imap./smtp.
    const account = await buildAccount(database.db, {
      domainName: `hosted-${kind}.test`,
      resources: { [`hosted-${kind}.test`]: { hasMail: true }, [`elsewhere-${kind}.test`]: { hasMail: true } },
    });
    await database.db
      .insertInto('dns_zones')
      .values({
        service_id: account.resources[`hosted-${kind}.test`] as number,
        created_at: 0,
        unpublished_since: null,
      })
      .execute();
    // the provider's brand, the default, with its SSL host in the provider's own zone on the server
    await new AdminService(database.db, new LocalEventBus(), () => now).ensureBrand({
      slug: 'provider',
      company: 'Provider',
      sslHost: 'mail.provider.test',
      isDefault: true,
    });
    dns = new FakeDns(['provider.test']);
    service = new MailCertificateService(
      database.db,
      new MailTlsDriver(
        {
          dir: tlsDir,
          doveadmConfig: '/x/dovecot.conf',
          postfixConfigDir: '/x/postfix',
          commands: { doveadm: 'doveadm', postfix: 'postfix', postmap: 'postmap' },
        },
        fakeSystem,
      ),
      keys,
      async (names: string[], responder: ChallengeResponder) => {
        orders.push(names);
        if (failWith) throw failWith;
        for (const name of names) await responder.present(name, 'token', `value-${name}`);
        for (const name of names) await responder.remove(name, 'token', `value-${name}`);
        return certificateFor(names, 90);
      },
      dns as unknown as DnsDriver,
      undefined,
      { renewBeforeSeconds: 30 * 86_400 },
      () => now,
      () => undefined,
      // The order jobs a round queues, run at once as the engine's worker would.
      {
        send: async (_kind, order) => {
          await service.order((order as { name: string }).name);
          return 'ran';
        },
      },
    );
  });
  afterAll(async () => {
    await database?.destroy();
    rmSync(tlsDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    orders.length = 0;
    reloads.length = 0;
    failWith = undefined;
  });

  it('wants the SSL host of a brand that has one, and imap./smtp. of hosted mail domains of one that has none', async () => {
    expect(await service.wanted()).toEqual({
      certificates: [
        { hosts: [`imap.hosted-${kind}.test`, `smtp.hosted-${kind}.test`] },
        { hosts: ['mail.provider.test'] },
      ],
      defaultHost: 'mail.provider.test',
    });
  });

  it('orders each once through DNS-01 in its zone, installs them, and a second round orders nothing', async () => {
    expect(await service.renewDue()).toBe(2);
    expect(orders).toEqual([[`imap.hosted-${kind}.test`, `smtp.hosted-${kind}.test`], ['mail.provider.test']]);
    // the TXT records went into the closest zone: the panel's, else the server's own
    expect(dns.written).toContain(`hosted-${kind}.test _acme-challenge.imap.hosted-${kind}.test. 1`);
    expect(dns.written).toContain('provider.test _acme-challenge.mail.provider.test. 1');
    expect(reloads).toContain('doveadm');
    expect(reloads).toContain('postfix');
    expect(readFileSync(path.join(tlsDir, 'dovecot-sni.conf'), 'utf8')).toContain(
      `local_name smtp.hosted-${kind}.test {`,
    );
    const listed = await service.list();
    expect(listed.map(({ host, state }) => ({ host, state }))).toEqual([
      { host: `imap.hosted-${kind}.test smtp.hosted-${kind}.test`, state: 'installed' },
      { host: 'mail.provider.test', state: 'installed' },
    ]);
    expect(await service.renewDue()).toBe(0);
    expect(orders).toHaveLength(2);
  });

  it('renews within the window; a failure is recorded, keeps the installed files, and waits before the next try', async () => {
    const before = readFileSync(path.join(tlsDir, 'default', 'fullchain.pem'), 'utf8');
    now += 61 * 86_400; // 29 days left of 90
    failWith = new DaemonError('acme.error.ca', 'urn:ietf:params:acme:error:rateLimited too many');
    expect(await service.renewDue()).toBe(2);
    const failed = await service.list();
    expect(failed.map((entry) => [entry.state, entry.errorKey])).toEqual([
      ['failed', 'acme.error.rate_limit'],
      ['failed', 'acme.error.rate_limit'],
    ]);
    expect(readFileSync(path.join(tlsDir, 'default', 'fullchain.pem'), 'utf8')).toBe(before);
    // not again at the next round, but after six hours
    failWith = undefined;
    expect(await service.renewDue()).toBe(0);
    now += 6 * 3600;
    expect(await service.renewDue()).toBe(2);
    expect(readFileSync(path.join(tlsDir, 'default', 'fullchain.pem'), 'utf8')).not.toBe(before);
    expect((await service.list()).every((entry) => entry.state === 'installed')).toBe(true);
  });

  it('forgets a certificate no brand needs any more (the SSL host changed)', async () => {
    await new AdminService(database.db, new LocalEventBus(), () => now).updateBrand('provider', {
      sslHost: 'imap.provider.test',
    });
    await service.renewDue();
    expect((await service.list()).map((entry) => entry.host)).toEqual([
      `imap.hosted-${kind}.test smtp.hosted-${kind}.test`,
      'imap.provider.test',
    ]);
  });
});
