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
import { PanelZoneResolver } from './panel-zone.resolver.ts';

/** The domain area as configured (server, CLI and demo seed). */
export function createDomainServices(
  db: Db,
  config: AppConfig,
  dnsDriver: DnsDriver,
  secretKey: Buffer,
  now: () => number,
) {
  const authSecrets = new SecretBox(secretKey, 'domain-auth');
  const registry = createRegistryDriver(config, { db, authSecrets });
  // Name servers must resolve through the configured resolvers. Only when no DNS server publishes
  // the panel's zones (the embedded driver) are those zones asked first.
  const dnsResolver = new DnsHostResolver(config.registry.resolvers);
  const resolver = !dnsDriver.publishesZones
    ? new ChainedHostResolver([new PanelZoneResolver(db), dnsResolver])
    : dnsResolver;
  const domains = new DomainService(
    db,
    registry,
    resolver,
    new PermissionService(db),
    createDnsService(db, config, dnsDriver, now),
    authSecrets,
    { defaultNameservers: config.dns.nameservers },
    now,
  );
  return { domains, contacts: new DomainContactService(db, domains, registry, now) };
}
