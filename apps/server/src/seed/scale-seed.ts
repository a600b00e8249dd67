import type { AppConfig } from '../config.ts';
import { numbered } from '../db/bulk-insert.ts';
import type { Db } from '../db/database.ts';
import type { DnsDriver } from '../drivers/dns/dns.driver.ts';
import { type AdminService, allKeys } from '../modules/admin/admin.service.ts';
import { BrandService } from '../modules/brand/brand.service.ts';
import { createDatabasesService } from '../modules/databases/create-databases-service.ts';
import { seedScaleDatabases } from '../modules/databases/scale-databases.seed.ts';
import { createDnsService } from '../modules/dns/dns.service.ts';
import { seedScaleZone } from '../modules/dns/scale-dns.seed.ts';
import { createFtpService } from '../modules/ftp/create-ftp-service.ts';
import { seedScaleFtp } from '../modules/ftp/scale-ftp.seed.ts';
import { createHostingService } from '../modules/hosting/create-hosting-service.ts';
import { scaleSiteFolder, seedScaleSites } from '../modules/hosting/scale-hosting.seed.ts';
import { seedScaleMail } from '../modules/mail/scale-mail.seed.ts';
import { loadSecretKey } from '../secret-key.ts';
import { DEMO } from './demo-seed.ts';

const DAY = 86_400;

/** What the scale data set holds; the defaults are a large reseller's (see apps/server/bench/README.md). */
export interface ScaleCounts {
  /** Resources (domain, hosting service and mail each) granted to the demo's admin. */
  domains: number;
  /** Records of the big service's zone, its defaults included. */
  records: number;
  mailboxes: number;
  aliases: number;
  sites: number;
  ftp: number;
  /** Databases of the big service (the plan's limit at most). */
  databases: number;
}

export const SCALE_DEFAULTS: Omit<ScaleCounts, 'databases'> = {
  domains: 10_000,
  records: 10_000,
  mailboxes: 10_000,
  aliases: 10_000,
  sites: 1_000,
  ftp: 1_000,
};

/** The references of the scale set: scale00001.test … (the first is the big service). */
export function scaleReferences(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${numbered('scale', i + 1, count)}.test`);
}

/** The one password of every mailbox, FTP account and database of the scale set. */
export const SCALE_PASSWORD = 'panel247-scale';

/**
 * The scale set is written as rows in bulk, which only drivers that keep nothing outside the
 * panel (the embedded defaults) take as they are: names the configured real daemons, if any.
 */
export function realDrivers(config: AppConfig): string[] {
  const real: string[] = [];
  if (config.dns.driver !== 'database') real.push(`DNS (${config.dns.driver})`);
  if (config.mail.driver !== 'embedded') real.push(`mail (${config.mail.driver})`);
  if (config.hosting.ftpDriver !== 'embedded') real.push(`FTP (${config.hosting.ftpDriver})`);
  if (config.web.driver !== 'embedded') real.push(`web (${config.web.driver})`);
  if (config.databases.driver !== 'embedded') real.push(`databases (${config.databases.driver})`);
  return real;
}

export interface ScalePart {
  part: string;
  created: number;
  seconds: number;
}

export interface ScaleResult {
  user: string;
  bigService: { id: number; reference: string };
  parts: ScalePart[];
  seconds: number;
}

/**
 * The scale data set on top of the demo (run after it): `domains` resources granted write to the
 * demo's admin, and in the first of them (the big service) a zone of `records` records, the
 * mailboxes and aliases, the sites, the FTP accounts and the databases. Every part is written in
 * bulk (multi-row inserts in one transaction, one password hash) and only once: a part already
 * there is skipped, so a second run adds nothing. Embedded drivers only (see `realDrivers`).
 */
export async function seedScale(
  ctx: { admin: AdminService; db: Db; config: AppConfig; dnsDriver: DnsDriver; now: () => number },
  counts: ScaleCounts,
  clock: () => number = () => performance.now(),
): Promise<ScaleResult> {
  const { admin, db, config, now } = ctx;
  const started = clock();
  const parts: ScalePart[] = [];
  const timed = async (part: string, work: () => Promise<number>) => {
    const start = clock();
    const created = await work();
    parts.push({ part, created, seconds: (clock() - start) / 1000 });
  };
  const references = scaleReferences(counts.domains);
  const big = { reference: references[0] as string, id: 0, domain: references[0] as string };
  await timed('resources', () => {
    const today = now();
    const resources = references.map((reference, i) => ({
      reference,
      hasDomain: true,
      hasService: true,
      hasMail: true,
      // Spread over a year, a few already expired: the dashboard's dots and sorting have work.
      domainExpireTs: today + (((i * 37) % 400) - 30) * DAY,
      serviceExpireTs: today + (((i * 53) % 400) - 30) * DAY,
      mailExpireTs: today + (((i * 71) % 400) - 30) * DAY,
    }));
    return admin.ensureResourcesBulk(DEMO.domain, DEMO.admin.username, resources, allKeys('write'));
  });
  big.id = await admin.resourceId(big.reference);

  const secretKey = loadSecretKey(config);
  const brands = new BrandService(db);
  const dns = createDnsService(db, config, ctx.dnsDriver, now);
  const ftp = createFtpService(db, config, brands, secretKey, now);
  const databases = createDatabasesService(db, config, brands, secretKey, now);
  const hosting = createHostingService(db, config, brands, secretKey, now);
  try {
    await timed('dns records', () => seedScaleZone(db, dns, big, counts.records, now()));
    await timed('mailboxes + aliases', async () => {
      const made = await seedScaleMail(
        db,
        big,
        {
          mailboxes: counts.mailboxes,
          aliases: counts.aliases,
          quotaMb: config.mail.defaultQuotaMb,
          password: SCALE_PASSWORD,
        },
        now(),
      );
      return made.mailboxes + made.aliases;
    });
    await timed('sites', () => seedScaleSites(db, hosting, big, counts.sites, now()));
    await timed('ftp accounts', () =>
      seedScaleFtp(db, ftp, big, counts.ftp, (i) => scaleSiteFolder(i, counts.sites), SCALE_PASSWORD),
    );
    await timed('databases', () =>
      seedScaleDatabases(
        db,
        databases,
        big,
        Math.min(counts.databases, config.databases.maxPerService),
        SCALE_PASSWORD,
      ),
    );
  } finally {
    await databases.close();
    await hosting.close();
  }
  return {
    user: `${DEMO.admin.username}@${DEMO.domain}`,
    bigService: { id: big.id, reference: big.reference },
    parts,
    seconds: (clock() - started) / 1000,
  };
}
