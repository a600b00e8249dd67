import type { AppConfig } from '../../config.ts';
import { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import type { DnsDriver } from '../../drivers/dns/dns.driver.ts';
import { createRegistryDriver } from '../../drivers/registry/create-registry-driver.ts';
import { ChainedHostResolver, DnsHostResolver } from '../../drivers/registry/host-resolver.ts';
import { createDnsService } from '../dns/dns.service.ts';
import { PermissionService } from '../permission/permission.service.ts';
import { DomainService } from './domain.service.ts';
import { DomainContactService } from './domain-contact.service.ts';
import { DomainDnssecService } from './domain-dnssec.service.ts';
import { DomainGlueService } from './domain-glue.service.ts';
import { DomainNameServerService } from './domain-nameserver.service.ts';
import { DomainStatusService } from './domain-status.service.ts';
import { PanelZoneResolver } from './panel-zone.resolver.ts';

/** The domain area, one service per concern; `domain` is the guard and overview the others build on. */
export interface DomainServices {
  domain: DomainService;
  nameServers: DomainNameServerService;
  glue: DomainGlueService;
  dnssec: DomainDnssecService;
  status: DomainStatusService;
}

/** The domain area as configured (server, CLI and demo seed). */
export function createDomainServices(
  db: Db,
  config: AppConfig,
  dnsDriver: DnsDriver,
  secretKey: Buffer,
  now: () => number,
): { domains: DomainServices; contacts: DomainContactService } {
  const authSecrets = new SecretBox(secretKey, 'domain-auth');
  const registry = createRegistryDriver(config, { db, authSecrets });
  // Name servers must resolve through the configured resolvers. Only when no DNS server publishes
  // the panel's zones (the embedded driver) are those zones asked first.
  const dnsResolver = new DnsHostResolver(config.registry.resolvers);
  const resolver = !dnsDriver.publishesZones
    ? new ChainedHostResolver([new PanelZoneResolver(db), dnsResolver])
    : dnsResolver;
  const settings = { defaultNameservers: config.dns.nameservers };
  const domain = new DomainService(db, registry, new PermissionService(db), authSecrets, settings, now);
  return {
    domains: {
      domain,
      nameServers: new DomainNameServerService(db, domain, registry, resolver, settings, {
        signedDs: async (zone) => (dnsDriver.signedDs ? dnsDriver.signedDs(zone) : []),
      }),
      glue: new DomainGlueService(db, domain, registry),
      dnssec: new DomainDnssecService(db, domain, registry, createDnsService(db, config, dnsDriver, now)),
      status: new DomainStatusService(db, domain, registry),
    },
    contacts: new DomainContactService(db, domain, registry, now),
  };
}
