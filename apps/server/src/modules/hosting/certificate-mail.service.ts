import { X509Certificate } from 'node:crypto';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import type { ChallengeResponder, IssuedCertificate, OrderStep } from '../../drivers/acme/acme.driver.ts';
import { DnsChallengeRecords } from '../../drivers/acme/dns-challenges.ts';
import type { NameChecks } from '../../drivers/acme/name-checks.ts';
import type { DnsDriver } from '../../drivers/dns/dns.driver.ts';
import { isMailTlsHost, type MailTlsDriver } from '../../drivers/mail-tls/mail-tls.driver.ts';
import { DaemonError } from '../../errors.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import { ORDER_MAIL_CERTIFICATE } from './certificate.jobs.ts';
import { type MailCertificates, orderFailure } from './certificate.service.ts';
import { mailCertificatesRepository as repository } from './certificate-mail.repository.ts';

/** A failed order is tried again after this long, not at every round. */
const RETRY_SECONDS = 6 * 3600;

/** One certificate the mail daemons must serve: its names, the first naming it. */
export interface WantedMailCertificate {
  hosts: string[];
}

export interface MailCertificateSettings {
  /** Renewal this many seconds before the end (the sites' setting). */
  renewBeforeSeconds: number;
}

/**
 * The mail daemons' certificates (IMAP, POP, submission): for each brand its SSL host (what the
 * connection data, autoconfig and .mobileconfig give mail clients, see mail/connection-hosts.ts),
 * or, for a brand without one, imap.<domain> and smtp.<domain> of each of its mail domains whose
 * zone the panel hosts (one certificate per domain, served by SNI). The default brand's SSL host
 * is what a client that names no known host gets.
 *
 * Every name is proved by DNS-01 through the panel's DNS server: a mail host need not be served
 * by nginx (nor resolve to it), and the zone is the panel's (a customer's zone hosted here, or
 * the provider's own zone on the same server for its SSL host). Orders are jobs of the work log
 * (ORDER_MAIL_CERTIFICATE, one at a time per certificate) queued by the sites' renewal rounds,
 * with their account at the CA and their failure reasons; the certificates
 * and sealed keys stay in the database and the mail TLS folder is always written whole from it,
 * so a failed order leaves the one that works where it is.
 */
export class MailCertificateService implements MailCertificates {
  constructor(
    private readonly db: Db,
    private readonly folder: MailTlsDriver,
    private readonly keys: SecretBox,
    private readonly issue: (
      names: string[],
      responder: ChallengeResponder,
      step: (step: OrderStep) => Promise<void>,
    ) => Promise<IssuedCertificate>,
    private readonly dns: DnsDriver | undefined,
    private readonly checks: NameChecks | undefined,
    private readonly settings: MailCertificateSettings,
    private readonly now: () => number,
    private readonly log: (error: unknown, host: string) => void,
    private readonly jobs: JobSender,
  ) {}

  /** The certificates the brands' mail hosts need now, and the default one's first name. */
  async wanted(): Promise<{ certificates: WantedMailCertificate[]; defaultHost: string }> {
    const certificates: WantedMailCertificate[] = [];
    const seen = new Set<string>();
    const add = (hosts: string[]) => {
      const fresh = hosts.map((host) => host.toLowerCase().replace(/\.$/, '')).filter((host) => !seen.has(host));
      if (fresh.length === 0 || fresh.some((host) => !isMailTlsHost(host))) return;
      for (const host of fresh) seen.add(host);
      certificates.push({ hosts: fresh });
    };
    let defaultHost = '';
    for (const brand of await repository.brands(this.db)) {
      if (brand.ssl_host !== '') {
        add([brand.ssl_host]);
        if (brand.is_default === 1) defaultHost = brand.ssl_host.toLowerCase();
        continue;
      }
      for (const domain of await repository.hostedMailDomains(this.db, brand.id))
        add([`imap.${domain}`, `smtp.${domain}`]);
    }
    return { certificates, defaultHost: defaultHost || (certificates[0]?.hosts[0] ?? '') };
  }

  /** Records the certificates newly wanted (to order) and forgets those no brand needs any more. */
  private async reconcile(): Promise<void> {
    const { certificates } = await this.wanted();
    const names = new Set(certificates.map((certificate) => certificate.hosts[0] as string));
    for (const certificate of certificates)
      await repository.insertQueued(this.db, certificate.hosts[0] as string, certificate.hosts, this.now());
    const gone = (await repository.all(this.db)).filter((row) => !names.has(row.name)).map((row) => row.name);
    await repository.remove(this.db, gone);
  }

  async list(): Promise<{ host: string; state: string; errorKey: string; expiresAt: number }[]> {
    return (await repository.all(this.db)).map((row) => ({
      host: row.hosts.split(',').join(' '),
      state: row.state,
      errorKey: row.error_key,
      expiresAt: Number(row.expires_at),
    }));
  }

  async renewDue(): Promise<number> {
    await this.reconcile();
    const now = this.now();
    const due = await repository.due(this.db, now, this.settings.renewBeforeSeconds, now - RETRY_SECONDS);
    for (const { name } of due) await this.jobs.send(ORDER_MAIL_CERTIFICATE, { name });
    return due.length;
  }

  async renewNow(host?: string): Promise<number> {
    await this.reconcile();
    const chosen = (await repository.all(this.db)).filter(
      (row) => host === undefined || row.hosts.split(',').includes(host),
    );
    for (const row of chosen) await this.order(row.name);
    return chosen.length;
  }

  /**
   * The zone whose DNS-01 record proves `host`: the closest zone the panel hosts, else the closest
   * the DNS server holds (the provider's own zone, for its SSL host).
   */
  private async zoneOf(host: string): Promise<string> {
    if (!this.dns?.publishesZones)
      throw new DaemonError('acme.error.dns_not_here', 'the mail certificates need a DNS driver that publishes zones');
    const parents = host
      .split('.')
      .map((_, index, labels) => labels.slice(index).join('.'))
      .slice(1, -1);
    const hosted = new Set(await repository.hostedZones(this.db));
    const panelZone = parents.find((parent) => hosted.has(parent));
    if (panelZone) return panelZone;
    for (const parent of parents) if (await this.dns.readZone(parent)) return parent;
    throw new DaemonError('acme.error.dns_not_here', `no zone of ${host} on the DNS server`);
  }

  /**
   * Orders one certificate (its order job's work, or the CLI's), then writes the mail TLS folder
   * and reloads the daemons. A failure is recorded on the row (and logged) and changes nothing in
   * the folder.
   */
  async order(name: string): Promise<void> {
    const step = (state: string) =>
      repository.update(this.db, name, { state, updated_at: this.now() }).then(() => undefined);
    try {
      const row = await repository.one(this.db, name);
      if (!row) return;
      const hosts = row.hosts.split(',');
      const problems = (await this.checks?.check(hosts, 'dns-01')) ?? [];
      if (problems.length > 0)
        throw new DaemonError('acme.error.caa_ca', problems.map((problem) => `${problem.name}: CAA`).join(', '));
      const zones = new Set(await Promise.all(hosts.map((host) => this.zoneOf(host))));
      if (zones.size !== 1) throw new DaemonError('acme.error.dns_not_here', `${row.hosts}: in several zones`);
      const responder = new DnsChallengeRecords(this.dns as DnsDriver, [...zones][0] as string);
      const issued = await this.issue(hosts, responder, step);
      await repository.update(this.db, name, {
        cert_pem: issued.certPem,
        chain_pem: issued.chainPem,
        key_sealed: this.keys.seal(issued.keyPem),
        expires_at: Math.floor(new Date(new X509Certificate(issued.certPem).validTo).getTime() / 1000),
        updated_at: this.now(),
      });
      await this.install();
      await repository.update(this.db, name, {
        state: 'installed',
        error_key: '',
        error_detail: '',
        updated_at: this.now(),
      });
    } catch (error) {
      const { errorKey, detail } = orderFailure(error);
      await repository.update(this.db, name, {
        state: 'failed',
        error_key: errorKey,
        error_detail: detail,
        updated_at: this.now(),
      });
      this.log(error, name);
    }
  }

  /** Writes every certificate there is into the mail TLS folder and reloads Dovecot and Postfix. */
  async install(): Promise<void> {
    const { defaultHost } = await this.wanted();
    const rows = (await repository.all(this.db)).filter((row) => row.cert_pem !== '' && row.key_sealed !== '');
    await this.folder.install(
      rows.map((row) => ({
        hosts: row.hosts.split(','),
        keyPem: this.keys.open(row.key_sealed),
        fullchainPem: `${row.cert_pem.trimEnd()}\n${row.chain_pem}`,
      })),
      defaultHost,
    );
  }
}
