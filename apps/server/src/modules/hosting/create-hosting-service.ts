import type { AppConfig } from '../../config.ts';
import { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import { setRequestRetries, trustDirectoryCaFile } from '../../drivers/acme/acme.driver.ts';
import { DnsChallengeRecords } from '../../drivers/acme/dns-challenges.ts';
import { HttpChallengeFiles } from '../../drivers/acme/http-challenges.ts';
import { NameChecks } from '../../drivers/acme/name-checks.ts';
import { createDatabasesDriver } from '../../drivers/databases/create-databases-driver.ts';
import type { DatabasesDriver } from '../../drivers/databases/databases.driver.ts';
import type { DnsDriver } from '../../drivers/dns/dns.driver.ts';
import { MailTlsDriver } from '../../drivers/mail-tls/mail-tls.driver.ts';
import { createWebDriver } from '../../drivers/web/create-web-driver.ts';
import type { WebDriver } from '../../drivers/web/web.driver.ts';
import { type JobSender, NO_JOB_SENDER } from '../../jobs/job-sender.ts';
import type { ChangeDelivery } from '../../jobs/service-changes.ts';
import type { BrandService } from '../brand/brand.service.ts';
import { PermissionService } from '../permission/permission.service.ts';
import type { WorkLanded } from '../realtime/work-events.ts';
import { CertificateService } from './certificate.service.ts';
import { MailCertificateService } from './certificate-mail.service.ts';
import { HostingChanges } from './hosting-changes.ts';
import { HostingOverviewService } from './hosting-overview.service.ts';
import { RedirectionService } from './redirection.service.ts';
import type { ServiceUsers } from './service-users.ts';
import { SiteService } from './site.service.ts';
import { SiteBuilderService } from './site-builder.service.ts';
import type { WebApplyWorker } from './web-apply-worker.ts';
import { createWebNode, type WebNode } from './web-node.ts';

/** The web side of hosting services, one service per concern, sharing how a service is changed. */
export interface HostingServices {
  overview: HostingOverviewService;
  siteBuilder: SiteBuilderService;
  redirections: RedirectionService;
  sites: SiteService;
  /** Automatic certificates (ACME) of the sites, and their renewal. */
  certificates: CertificateService;
  /** Whether sites reach a real web server, and how the demo seed makes one service served. */
  changes: HostingChanges;
  /** The node's side: what a service's `web.apply-service` job runs. */
  webApplier: WebApplyWorker;
  close(): Promise<void>;
}

export function createHostingService(
  db: Db,
  config: AppConfig,
  brands: BrandService,
  secretKey: Buffer,
  now: () => number,
  webDriver: WebDriver = createWebDriver(config),
  options: {
    /** DNS-01 answers go through it when it publishes zones; without one only HTTP-01 is offered. */
    dnsDriver?: DnsDriver;
    log?: (error: unknown, siteId: number) => void;
    /** The services' system users (default: those of the configured driver). */
    users?: ServiceUsers;
    /** Where certificate orders go (the work log); processes that never order need none. */
    jobs?: JobSender;
    /** The process's one permission service (the app's caches what it reads). */
    permissions?: PermissionService;
    /** How web changes reach the web server (default: applied in this process, for the CLI and seeds). */
    webDelivery?: ChangeDelivery;
    /** Told when a service's web changes moved on (the realtime channel). */
    landed?: WorkLanded;
    /** This machine's web side, when the caller built it already (its driver is then `webDriver`). */
    node?: WebNode;
    /** The node's databases driver (reading each database where it is placed), closed by its owner. */
    databasesDriver?: DatabasesDriver;
  } = {},
): HostingServices {
  const node =
    options.node ??
    createWebNode(db, config, secretKey, now, {
      driver: webDriver,
      ...(options.users ? { users: options.users } : {}),
      ...(options.landed ? { landed: options.landed } : {}),
    });
  const { homes, keys, settings } = node;
  const changes = new HostingChanges(
    db,
    options.permissions ?? new PermissionService(db),
    webDriver,
    node.model,
    node.worker,
    options.webDelivery ?? { inline: true },
    now,
    config.agent.node,
  );
  // The overview's database usage: the node's driver reads each database's size on the server
  // holding it; without one (the CLI, seeds) a pool of the overview's own, connected on first use.
  const overview = new HostingOverviewService(
    db,
    changes,
    homes,
    webDriver,
    options.databasesDriver ?? createDatabasesDriver(config),
    settings,
    now,
    options.databasesDriver === undefined,
  );
  const { dnsDriver } = options;
  if (config.acme.directoryCaFile) trustDirectoryCaFile(config.acme.directoryCaFile);
  setRequestRetries(config.acme.retryAttempts, config.acme.retryDelaySeconds);
  const certificates = new CertificateService(
    db,
    changes,
    keys,
    new SecretBox(secretKey, 'acme-account-key'),
    {
      directoryUrl: config.acme.directoryUrl,
      email: config.acme.email ?? '',
      ...(config.acme.eabKid && config.acme.eabHmacKey
        ? { externalAccountBinding: { kid: config.acme.eabKid, hmacKey: config.acme.eabHmacKey } }
        : {}),
      renewBeforeSeconds: config.acme.renewDays * 86_400,
    },
    new NameChecks(config.acme),
    {
      http: new HttpChallengeFiles(config.web.acmeChallengeDir as string),
      ...(dnsDriver?.publishesZones ? { dns: (zone: string) => new DnsChallengeRecords(dnsDriver, zone) } : {}),
    },
    now,
    options.log ?? (() => undefined),
    options.jobs ?? NO_JOB_SENDER,
  );
  if (config.mailTls.dir)
    certificates.attachMail(createMailCertificates(db, config, certificates, secretKey, now, options));
  return {
    overview,
    siteBuilder: new SiteBuilderService(db, changes, brands, settings, now),
    redirections: new RedirectionService(db, changes, now),
    sites: new SiteService(db, changes, keys, now),
    certificates,
    changes,
    webApplier: changes.worker,
    close: () => overview.close(),
  };
}

/**
 * The mail daemons' certificates (PANEL_MAIL_TLS_DIR set): ordered with the sites' account at the
 * CA, proved through the DNS driver, written into the mail TLS folder, Dovecot and Postfix reloaded.
 */
function createMailCertificates(
  db: Db,
  config: AppConfig,
  certificates: CertificateService,
  secretKey: Buffer,
  now: () => number,
  options: { dnsDriver?: DnsDriver; log?: (error: unknown, siteId: number) => void; jobs?: JobSender },
): MailCertificateService {
  const folder = new MailTlsDriver({
    dir: config.mailTls.dir,
    ...(config.mail.doveadmConfig ? { doveadmConfig: config.mail.doveadmConfig } : {}),
    ...(config.mailTls.postfixConfigDir ? { postfixConfigDir: config.mailTls.postfixConfigDir } : {}),
  });
  return new MailCertificateService(
    db,
    folder,
    new SecretBox(secretKey, 'mail-tls-key'),
    (names, responder, step) => certificates.issue(names, responder, step),
    options.dnsDriver,
    new NameChecks(config.acme),
    { renewBeforeSeconds: config.acme.renewDays * 86_400 },
    now,
    // the sites' log line, naming the mail certificate's host instead of a site (0)
    (error, host) =>
      options.log?.(
        Object.assign(new Error(`mail certificate ${host}: ${(error as Error).message}`), { cause: error }),
        0,
      ),
    options.jobs ?? NO_JOB_SENDER,
  );
}
