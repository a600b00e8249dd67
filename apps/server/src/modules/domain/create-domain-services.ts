import type { AppConfig } from '../../config.ts';
import { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import type { DnsDriver } from '../../drivers/dns/dns.driver.ts';
import { DelvLookup, type ValidatedLookup } from '../../drivers/dnssec/validated-lookup.ts';
import { createRegistryDriver } from '../../drivers/registry/create-registry-driver.ts';
import { ChainedHostResolver, DnsHostResolver } from '../../drivers/registry/host-resolver.ts';
import { type JobSender, NO_JOB_SENDER } from '../../jobs/job-sender.ts';
import { noteRegistryTransaction } from '../activity/activity-context.ts';
import { createDnsService, type DnsService } from '../dns/dns.service.ts';
import { PermissionService } from '../permission/permission.service.ts';
import { RegistriesService } from '../registries/registries.service.ts';
import { type CdsChange, CdsScanService } from './cds-scan.service.ts';
import { DomainService } from './domain.service.ts';
import { DomainContactService } from './domain-contact.service.ts';
import { DomainDnssecService } from './domain-dnssec.service.ts';
import { DomainGlueService } from './domain-glue.service.ts';
import { DomainNameServerService } from './domain-nameserver.service.ts';
import { DomainStatusService } from './domain-status.service.ts';
import { PanelZoneResolver } from './panel-zone.resolver.ts';
import { RegistryMessagesService } from './registry-messages.service.ts';
import { RegistrySyncService } from './registry-sync.service.ts';
import { ZoneDnssecService } from './zone-dnssec.service.ts';

/** The domain area, one service per concern; `domain` is the guard and overview the others build on. */
export interface DomainServices {
  domain: DomainService;
  nameServers: DomainNameServerService;
  glue: DomainGlueService;
  dnssec: DomainDnssecService;
  status: DomainStatusService;
  /** DNSSEC of the hosted zone, from the DNS view (sign, unsign as a job). */
  zoneDnssec: ZoneDnssecService;
  /** The CDS/CDNSKEY scan of domains hosted elsewhere. */
  cdsScan: CdsScanService;
  /** The registries' poll queues (EPP): transfers away, registry-side changes. */
  registryMessages: RegistryMessagesService;
  /** `registry sync`: the panel's copy compared with the registries', drift imported. */
  registrySync: RegistrySyncService;
  /** Ends the registry driver's sessions (EPP). */
  close(): Promise<void>;
}

/** Where the domain area reports what runs after a call answered (the app's logger; the CLI's output). */
export interface DomainEvents {
  unsignFailed(error: unknown, job: string): void;
  cdsChanged(change: CdsChange): void;
}

const QUIET: DomainEvents = { unsignFailed: () => undefined, cdsChanged: () => undefined };

/** The domain area as configured (server, CLI and demo seed). */
export function createDomainServices(
  db: Db,
  config: AppConfig,
  dnsDriver: DnsDriver,
  secretKey: Buffer,
  now: () => number,
  options: {
    events?: DomainEvents;
    validatedLookup?: ValidatedLookup;
    /** Where unsigning steps go (the work log); processes that never unsign need none. */
    jobs?: JobSender;
    /** The process's one permission service and DNS service, when it has them already. */
    permissions?: PermissionService;
    dns?: DnsService;
  } = {},
): { domains: DomainServices; contacts: DomainContactService } {
  const events = options.events ?? QUIET;
  const authSecrets = new SecretBox(secretKey, 'domain-auth');
  const registries = new RegistriesService(db, new SecretBox(secretKey, 'registry-password'), now);
  const registry = createRegistryDriver(config, {
    db,
    authSecrets,
    registries: () => registries.logins(),
    onTransaction: noteRegistryTransaction,
    now,
  });
  // Name servers must resolve through the configured resolvers. Only when no DNS server publishes
  // the panel's zones (the embedded driver) are those zones asked first.
  const dnsResolver = new DnsHostResolver(config.registry.resolvers);
  const resolver = !dnsDriver.publishesZones
    ? new ChainedHostResolver([new PanelZoneResolver(db), dnsResolver])
    : dnsResolver;
  const settings = { defaultNameservers: config.dns.nameservers };
  const permissions = options.permissions ?? new PermissionService(db);
  const domain = new DomainService(db, registry, permissions, authSecrets, settings, now);
  const dns = options.dns ?? createDnsService(db, config, dnsDriver, now, options.jobs, permissions);
  const dnssec = new DomainDnssecService(db, domain, registry, dns);
  const { dsTtlSeconds, parentDelaySeconds, unsignWaitSeconds } = config.dnssec;
  const zoneDnssec = new ZoneDnssecService(
    db,
    permissions,
    dnssec,
    {
      signsZones: dnsDriver.signsZones && Boolean(dnsDriver.signedDs && dnsDriver.removeKeys),
      sign: (serviceId, reference, punycode) => dns.dsRecordsOf(serviceId, reference, punycode),
      signedDs: async (zone) => (dnsDriver.signedDs ? dnsDriver.signedDs(zone) : []),
      removeKeys: async (zone) => dnsDriver.removeKeys?.(zone),
    },
    { unsignWaitSeconds: unsignWaitSeconds ?? dsTtlSeconds + parentDelaySeconds },
    now,
    events.unsignFailed,
    options.jobs ?? NO_JOB_SENDER,
  );
  const lookup =
    options.validatedLookup ??
    new DelvLookup({
      resolvers: config.registry.resolvers,
      anchorsFile: config.dnssec.trustAnchors,
      root: config.dnssec.trustRoot,
    });
  const cdsScan = new CdsScanService(db, domain, dnssec, lookup, now, events.cdsChanged);
  return {
    domains: {
      domain,
      nameServers: new DomainNameServerService(db, domain, registry, resolver, settings, {
        signedDs: async (zone) => (dnsDriver.signedDs ? dnsDriver.signedDs(zone) : []),
      }),
      glue: new DomainGlueService(db, domain, registry),
      dnssec,
      status: new DomainStatusService(db, domain, registry),
      zoneDnssec,
      cdsScan,
      registryMessages: new RegistryMessagesService(db, registry, now),
      registrySync: new RegistrySyncService(db, domain, registry, authSecrets, settings),
      close: async () => registry.close?.(),
    },
    contacts: new DomainContactService(db, domain, registry, now),
  };
}
