import type { Db } from '../db/database.ts';
import { type AdminService, allKeys } from '../modules/admin/admin.service.ts';
import type { DatabasesService } from '../modules/databases/databases.service.ts';
import { seedDemoDatabases } from '../modules/databases/demo-databases.seed.ts';
import type { DnsService } from '../modules/dns/dns.service.ts';
import type { DomainServices } from '../modules/domain/create-domain-services.ts';
import { seedDemoDomains } from '../modules/domain/demo-domains.seed.ts';
import { seedDemoFtp } from '../modules/ftp/demo-ftp.seed.ts';
import type { FtpService } from '../modules/ftp/ftp.service.ts';
import type { HostingServices } from '../modules/hosting/create-hosting-service.ts';
import { seedDemoHosting, seedDemoParking } from '../modules/hosting/demo-hosting.seed.ts';
import { seedDemoMail } from '../modules/mail/demo-mail.seed.ts';

const DAY = 86_400;

export const DEMO = {
  domain: 'demo.test',
  admin: { username: 'admin', password: 'panel247-demo' },
  viewer: { username: 'viewer', password: 'panel247-view' },
} as const;

/** The brand every installation has, so the panel can answer before the provider sets one up. */
/** The demo provider's host for mail and FTP over SSL (the per-domain hosts are for plain use). */
export const DEMO_SSL_HOST = 'ssl.demohosting.test';

export async function ensureDefaultBrand(admin: AdminService): Promise<void> {
  const brands = await admin.listBrands();
  if (brands.length > 0) return;
  await admin.ensureBrand({ slug: 'default', company: 'Panel247', isDefault: true });
}

/**
 * Demo data, idempotent: running it again creates only what is missing and never resets a
 * password a user changed. Later features add their rows here so every screen has something real.
 */
export async function seedDemo(
  admin: AdminService,
  now: number,
  extra?: {
    dns: DnsService;
    domains: DomainServices;
    ftp: FtpService;
    databases: DatabasesService;
    db: Db;
    hosting: HostingServices;
  },
): Promise<void> {
  await admin.ensureBrand({
    slug: 'demo',
    company: 'Panel247 Demo Hosting',
    color: 'indigo',
    isDefault: true,
    contactEmail: 'soporte@demo.test',
    hosts: ['localhost', '127.0.0.1'],
    // The provider's fixed host for SSL connections (mail and FTP), as spec 2 section 2 has it.
    sslHost: DEMO_SSL_HOST,
  });
  // The demo brand is the default one; an older default brand stays, no longer default.
  await admin.ensureAccount(DEMO.domain, 'demo', 'Demo S.L.');
  await admin.ensureUser(DEMO.domain, DEMO.admin.username, DEMO.admin.password);
  await admin.ensureUser(DEMO.domain, DEMO.viewer.username, DEMO.viewer.password);

  const resources = [
    {
      reference: 'demo.test',
      hasDomain: true,
      hasService: true,
      hasMail: true,
      domainExpireTs: now + 300 * DAY,
      serviceExpireTs: now + 200 * DAY,
      mailExpireTs: now + 200 * DAY,
    },
    // Expired a few days ago, so the red status dot has something to show.
    { reference: 'shop-demo.test', hasDomain: true, domainExpireTs: now - 5 * DAY },
    { reference: 'parking-demo.test', hasService: true, isRedirAndParking: true, serviceExpireTs: now + 90 * DAY },
    { reference: 'mail-demo.test', hasMail: true, mailExpireTs: now + 120 * DAY },
  ];
  for (const resource of resources) {
    await admin.ensureResource(DEMO.domain, resource);
    await admin.grant(DEMO.domain, DEMO.admin.username, resource.reference, allKeys('write'), { onlyIfMissing: true });
  }
  await admin.grant(DEMO.domain, DEMO.viewer.username, 'demo.test', allKeys('read'), { onlyIfMissing: true });
  if (!extra) return;
  // Every hosting service has its DNS zone from the start (demo.test's gets its demo records).
  await seedDemoZone(admin, extra.dns);
  for (const resource of resources.filter((r) => r.hasService && r.reference !== DEMO.domain)) {
    const id = await admin.resourceId(resource.reference);
    await extra.dns.ensureZoneOf(id, resource.reference, resource.reference);
  }
  await seedDemoDomains(
    extra.db,
    extra.domains.domain,
    await admin.accountId(DEMO.domain),
    { demo: await admin.resourceId('demo.test'), shop: await admin.resourceId('shop-demo.test') },
    now,
  );
  await seedDemoMail(
    extra.db,
    { demo: await admin.resourceId('demo.test'), mailDemo: await admin.resourceId('mail-demo.test') },
    now,
  );
  await seedDemoFtp(extra.db, extra.ftp, { id: await admin.resourceId(DEMO.domain), domain: DEMO.domain });
  await seedDemoDatabases(extra.db, extra.databases, { id: await admin.resourceId(DEMO.domain), domain: DEMO.domain });
  await seedDemoHosting(extra.hosting, { id: await admin.resourceId(DEMO.domain), domain: DEMO.domain });
  await seedDemoParking(extra.hosting, extra.db, await admin.resourceId('parking-demo.test'), now);
}

/**
 * A realistic zone for demo.test: the provider's defaults (SPF and DMARC among them) plus SIP, CAA
 * and a shop alias.
 */
async function seedDemoZone(admin: AdminService, dns: DnsService): Promise<void> {
  const serviceId = await admin.resourceId(DEMO.domain);
  // Only a zone made now gets the demo records: one the user has changed since stays as it is.
  if (!(await dns.ensureZoneOf(serviceId, DEMO.domain, DEMO.domain))) return;
  const records = [
    { type: 'A', zona: 'sip', value: '192.0.2.50', ttl: 0, priority: 0 },
    { type: 'A', zona: 'ns1', value: '192.0.2.53', ttl: 0, priority: 0 },
    { type: 'A', zona: 'ns2', value: '192.0.2.54', ttl: 0, priority: 0 },
    { type: 'SRV', zona: '_sip._tcp', value: '5 5060 sip.demo.test', ttl: 0, priority: 20 },
    { type: 'CAA', zona: '', value: '0 issue "letsencrypt.org"', ttl: 86400, priority: 0 },
    { type: 'CNAME', zona: 'tienda', value: 'shop-demo.test', ttl: 600, priority: 0 },
    { type: 'MX', zona: '', value: 'backup-mx.demo.test', ttl: 0, priority: 20 },
  ];
  for (const record of records) await dns.addRecord(serviceId, DEMO.domain, DEMO.domain, record);
}
