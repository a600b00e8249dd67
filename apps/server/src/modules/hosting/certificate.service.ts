import { X509Certificate } from 'node:crypto';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import {
  type AcmeAccount,
  AcmeDriver,
  type ChallengeResponder,
  type ChallengeType,
  createAccountKey,
  type IssuedCertificate,
  type OrderStep,
  problemType,
} from '../../drivers/acme/acme.driver.ts';
import type { NameChecks, NameProblem } from '../../drivers/acme/name-checks.ts';
import { AppError, DaemonError, FieldErrors, NotFoundError } from '../../errors.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import type { Actor } from '../auth/actor.ts';
import { ORDER_SITE_CERTIFICATE } from './certificate.jobs.ts';
import { certificatesRepository } from './certificates.repository.ts';
import { hostingRepository } from './hosting.repository.ts';
import type { HostingChanges } from './hosting-changes.ts';
import { hostOf } from './hosting-input.ts';

export type CertificateState = 'queued' | OrderStep | 'installed' | 'failed';

/** What the site's page shows of its automatic certificate; the route translates `errorKey`. */
export interface CertificateView {
  challenge: ChallengeType;
  wildcard: boolean;
  state: CertificateState;
  errorKey: string;
  /** Epoch seconds; 0 before the first certificate. */
  expiresAt: number;
}

export interface AcmeSettings {
  directoryUrl: string;
  email: string;
  externalAccountBinding?: { kid: string; hmacKey: string };
  /** Renewal this many seconds before the end. */
  renewBeforeSeconds: number;
}

/** A failed renewal is tried again after this long, not at every check. */
const RETRY_SECONDS = 6 * 3600;

/** The CA's problem types a customer can act on, in the panel's words (RFC 8555 §6.7). */
const KNOWN_PROBLEMS: Record<string, string> = {
  rateLimited: 'acme.error.rate_limit',
  unauthorized: 'acme.error.unauthorized',
  caa: 'acme.error.caa_ca',
  dns: 'acme.error.dns',
  connection: 'acme.error.connection',
  incorrectResponse: 'acme.error.unauthorized',
  rejectedIdentifier: 'acme.error.rejected',
};

/** The CA could not be reached at all (down, or the network to it). */
const UNREACHABLE = /EUNREACHABLE|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|socket hang up/;

const PROBLEM_KEYS: Record<NameProblem['problem'], string> = {
  unresolved: 'acme.error.unresolved',
  elsewhere: 'acme.error.elsewhere',
  caa: 'acme.error.caa',
};

/** Why an order failed, as the panel says it (a translation key) and as the CA or the network did. */
export function orderFailure(error: unknown): { errorKey: string; detail: string } {
  const detail = (error as { detail?: string }).detail ?? (error as Error).message ?? '';
  const known = UNREACHABLE.test(detail) ? 'acme.error.unreachable' : KNOWN_PROBLEMS[problemType(error) ?? ''];
  const errorKey = known ?? (error instanceof AppError ? error.messageKey : 'acme.error.ca');
  return { errorKey, detail: String(detail).slice(0, 500) };
}

/** The mail daemons' certificates, renewed on the sites' schedule and listed with them (certificate-mail.service.ts). */
export interface MailCertificates {
  list(): Promise<{ host: string; state: string; errorKey: string; expiresAt: number }[]>;
  /** Orders now the certificate that covers `host` (undefined: every one); how many it ordered. */
  renewNow(host?: string): Promise<number>;
  /** Queues an order for each certificate due; how many. */
  renewDue(): Promise<number>;
  /** Orders one certificate, by its first host (the order job's work). */
  order(name: string): Promise<void>;
}

/**
 * Automatic certificates for sites: the checks before an order (what would make the CA refuse,
 * said in the customer's words), the order as a job whose steps the site's page follows, the
 * installation through the same change as an uploaded certificate (so nginx gets it with the
 * rest of the service), and renewal before the end. Each order is a job of the work log
 * (ORDER_SITE_CERTIFICATE): one waiting and one running per site across every instance, so a
 * certificate is never ordered twice at once, and an order whose instance died is run again.
 */
export class CertificateService {
  private mail?: MailCertificates;

  constructor(
    private readonly db: Db,
    private readonly changes: HostingChanges,
    private readonly siteKeys: SecretBox,
    private readonly accountKeys: SecretBox,
    private readonly acme: AcmeSettings,
    private readonly checks: NameChecks,
    private readonly responders: { http: ChallengeResponder; dns?: (zone: string) => ChallengeResponder },
    private readonly now: () => number,
    private readonly log: (error: unknown, siteId: number) => void,
    private readonly jobs: JobSender,
  ) {}

  private toView(row: {
    challenge: string;
    wildcard: number;
    state: string;
    error_key: string;
    expires_at: number | string;
  }): CertificateView {
    return {
      challenge: row.challenge as ChallengeType,
      wildcard: row.wildcard === 1,
      state: row.state as CertificateState,
      errorKey: row.error_key,
      expiresAt: Number(row.expires_at),
    };
  }

  private async site(serviceId: number, siteId: number) {
    const site = await hostingRepository.site(this.db, serviceId, siteId);
    if (!site) throw new NotFoundError();
    return site;
  }

  /** The site's automatic certificate, or null when its SSL is off or an uploaded certificate. */
  async state(actor: Actor, serviceId: number, siteId: number): Promise<CertificateView | null> {
    await this.changes.service(actor, serviceId, 'service_subdomains', 'visible');
    await this.site(serviceId, siteId);
    const row = await certificatesRepository.ofSite(this.db, siteId);
    return row ? this.toView(row) : null;
  }

  /** The names a site's certificate covers: its host (the main domain also as www), or host and *.host. */
  private async names(serviceId: number, domain: string, subdomain: string, wildcard: boolean): Promise<string[]> {
    const host = hostOf(subdomain, domain);
    if (wildcard) return [host, `*.${host}`];
    if (subdomain !== '') return [host];
    // the main domain also answers as www.<domain>, unless a site of its own is www
    const www = await hostingRepository.siteBySubdomain(this.db, serviceId, 'www');
    return www ? [host] : [host, `www.${domain}`];
  }

  /**
   * Turns the site's SSL to automatic: checks what would make the order fail, then queues the
   * order and answers at once (the page follows the steps with `state`).
   */
  async setAutomatic(
    actor: Actor,
    serviceId: number,
    siteId: number,
    request: { challenge: ChallengeType; wildcard: boolean },
  ): Promise<CertificateView> {
    const service = await this.changes.service(actor, serviceId, 'service_subdomains', 'action');
    const site = await this.site(serviceId, siteId);
    if (request.wildcard && request.challenge !== 'dns-01')
      throw FieldErrors.one('wildcard', 'acme.error.wildcard_dns');
    if (request.challenge === 'dns-01' && !this.responders.dns)
      throw FieldErrors.one('challenge', 'acme.error.dns_not_here');
    if (request.challenge === 'http-01') await this.refuseUnreachable(serviceId, site.subdomain);
    const names = await this.names(serviceId, service.domain, site.subdomain, request.wildcard);
    const problems = await this.checks.check(names, request.challenge);
    if (problems.length > 0) {
      throw new FieldErrors(
        problems.map((problem) => ({
          field: 'challenge',
          messageKey: PROBLEM_KEYS[problem.problem],
          params: { name: problem.name, found: problem.found.join(', ') },
        })),
      );
    }
    const now = this.now();
    await certificatesRepository.upsert(this.db, {
      site_id: siteId,
      service_id: serviceId,
      challenge: request.challenge,
      wildcard: request.wildcard ? 1 : 0,
      state: 'queued',
      updated_at: now,
    });
    await this.jobs.send(ORDER_SITE_CERTIFICATE, { serviceId, siteId });
    return this.toView({
      challenge: request.challenge,
      wildcard: request.wildcard ? 1 : 0,
      state: 'queued',
      error_key: '',
      expires_at: 0,
    });
  }

  /** Back to a certificate the customer manages: what is installed stays, nothing renews it. */
  async setManual(actor: Actor, serviceId: number, siteId: number): Promise<void> {
    await this.changes.service(actor, serviceId, 'service_subdomains', 'action');
    await this.site(serviceId, siteId);
    await certificatesRepository.remove(this.db, siteId);
  }

  /** HTTP-01 needs the CA's request to reach the site: a parked service or a host redirected whole would answer it. */
  private async refuseUnreachable(serviceId: number, subdomain: string): Promise<void> {
    const settings = await hostingRepository.settings(this.db, serviceId);
    if (settings?.parking === 1) throw FieldErrors.one('challenge', 'acme.error.parked');
    const redirections = await hostingRepository.redirections(this.db, serviceId);
    if (redirections.some((redirection) => redirection.subdomain === subdomain && redirection.path === '/')) {
      throw FieldErrors.one('challenge', 'acme.error.redirected');
    }
  }

  /**
   * The panel's account at the CA for this contact (the brand's, else the provider's): its key
   * made once and sealed (the first instance to record it wins).
   */
  private async account(email: string): Promise<AcmeAccount> {
    const { directoryUrl } = this.acme;
    let row = await certificatesRepository.account(this.db, directoryUrl, email);
    if (!row) {
      await certificatesRepository.insertAccount(this.db, {
        directory_url: directoryUrl,
        email,
        key_sealed: this.accountKeys.seal(await createAccountKey()),
        created_at: this.now(),
      });
      row = await certificatesRepository.account(this.db, directoryUrl, email);
    }
    return {
      directoryUrl,
      accountKeyPem: this.accountKeys.open((row as { key_sealed: string }).key_sealed),
      ...(email ? { email } : {}),
      ...(this.acme.externalAccountBinding ? { externalAccountBinding: this.acme.externalAccountBinding } : {}),
    };
  }

  /** Orders a certificate for `names` with the panel's account of `email` (default: the provider's contact). */
  async issue(
    names: string[],
    responder: ChallengeResponder,
    step: (step: OrderStep) => Promise<void>,
    email: string = this.acme.email,
  ): Promise<IssuedCertificate> {
    return new AcmeDriver(await this.account(email)).issue(names, responder, step);
  }

  /** The mail daemons' certificates: renewed in the same rounds, listed and renewed with the sites'. */
  attachMail(mail: MailCertificates): void {
    this.mail = mail;
  }

  /**
   * Orders and installs one site's certificate (the order job's work, or the CLI's). A failure
   * leaves whatever certificate the site had installed and serving, and records why.
   */
  async order(serviceId: number, siteId: number): Promise<void> {
    const step = (state: CertificateState) =>
      certificatesRepository.update(this.db, siteId, { state, updated_at: this.now() }).then(() => undefined);
    try {
      const row = await certificatesRepository.ofSite(this.db, siteId);
      const domain = await certificatesRepository.serviceDomain(this.db, serviceId);
      const site = await hostingRepository.site(this.db, serviceId, siteId);
      if (!row || !domain || !site) return;
      const challenge = row.challenge as ChallengeType;
      const responder = challenge === 'dns-01' ? this.responders.dns?.(domain) : this.responders.http;
      if (!responder)
        throw new DaemonError('acme.error.dns_not_here', 'DNS-01 needs the zone on a DNS server the panel drives');
      const names = await this.names(serviceId, domain, site.subdomain, row.wildcard === 1);
      // The CA's HTTP request must find the host served: a service nginx has not been given yet
      // (its rows only, before a first change) gets its configuration now.
      if (challenge === 'http-01')
        await this.changes.change({ id: serviceId, domain }, async () => undefined, { prepare: [], hosts: [] });
      const email = (await certificatesRepository.brandAcmeEmail(this.db, serviceId)) || this.acme.email;
      const issued = await this.issue(names, responder, step, email);
      const expiresAt = Math.floor(new Date(new X509Certificate(issued.certPem).validTo).getTime() / 1000);
      await this.changes.change(
        { id: serviceId, domain },
        (trx) =>
          hostingRepository.updateSite(trx, serviceId, siteId, {
            ssl_active: 1,
            cert_pem: issued.certPem,
            cert_chain_pem: issued.chainPem,
            key_sealed: this.siteKeys.seal(issued.keyPem),
          }),
        { prepare: [], hosts: [site.subdomain] },
      );
      await certificatesRepository.update(this.db, siteId, {
        state: 'installed',
        error_key: '',
        error_detail: '',
        expires_at: expiresAt,
        updated_at: this.now(),
      });
    } catch (error) {
      const { errorKey, detail } = orderFailure(error);
      await certificatesRepository.update(this.db, siteId, {
        state: 'failed',
        error_key: errorKey,
        error_detail: detail,
        updated_at: this.now(),
      });
      this.log(error, siteId);
    }
  }

  /** Every automatic certificate, for the provider (`certs list`). */
  async list(): Promise<
    { host: string; serviceId: number; siteId: number; state: string; errorKey: string; expiresAt: number }[]
  > {
    // the mail daemons' certificates belong to no service or site (0, 0)
    const mail = ((await this.mail?.list()) ?? []).map((entry) => ({ ...entry, serviceId: 0, siteId: 0 }));
    return [...(await this.siteList()), ...mail];
  }

  private async siteList() {
    return (await certificatesRepository.all(this.db)).map((row) => ({
      host: hostOf(row.subdomain, row.domain),
      serviceId: row.service_id,
      siteId: row.site_id,
      state: row.state,
      errorKey: row.error_key,
      expiresAt: Number(row.expires_at),
    }));
  }

  /** Orders now, due or not: the site whose host is `host`, or every automatic certificate. */
  async renewNow(host?: string): Promise<number> {
    const chosen = (await this.siteList()).filter((entry) => host === undefined || entry.host === host);
    for (const entry of chosen) await this.order(entry.serviceId, entry.siteId);
    const mail = (await this.mail?.renewNow(host)) ?? 0;
    if (host !== undefined && chosen.length + mail === 0) throw new NotFoundError('acme.error.no_site');
    return chosen.length + mail;
  }

  /**
   * One renewal round: an order job for every certificate near its end (and failed ones, now and
   * then); a site whose order already waits gets no second one.
   */
  async renewDue(): Promise<number> {
    const now = this.now();
    const due = await certificatesRepository.due(this.db, now, this.acme.renewBeforeSeconds, now - RETRY_SECONDS);
    for (const { service_id, site_id } of due)
      await this.jobs.send(ORDER_SITE_CERTIFICATE, { serviceId: service_id, siteId: site_id });
    return due.length + ((await this.mail?.renewDue()) ?? 0);
  }

  /** A mail certificate's order job's work. */
  async orderMail(name: string): Promise<void> {
    await this.mail?.order(name);
  }
}
