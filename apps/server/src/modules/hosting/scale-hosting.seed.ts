import { isServiceFolder, isSubdomainName } from '@panel247/contract/hosting-rules';
import { inChunks, numbered } from '../../db/bulk-insert.ts';
import type { Db } from '../../db/database.ts';
import type { HostingServices } from './create-hosting-service.ts';
import { hostingRepository } from './hosting.repository.ts';

/** The folder of the scale set's i-th site (its FTP account of the same number works in it). */
export function scaleSiteFolder(i: number, largest: number): string {
  return `sites/${numbered('site', i, largest)}`;
}

/**
 * The scale data set's sites: `count` subdomains (site00001…), each in its own folder, inserted in
 * bulk, then the service applied once to the web driver (its folders created, its configuration
 * written), as one change. Once: a service with more than its main site is left alone. Only for
 * the embedded web driver (the caller checks). Returns how many sites went in.
 */
export async function seedScaleSites(
  db: Db,
  hosting: HostingServices,
  service: { id: number; domain: string },
  count: number,
  now: number,
): Promise<number> {
  await hosting.changes.ensure(db, service.id);
  if ((await hostingRepository.sites(db, service.id)).length > 1) return 0;
  const rows = Array.from({ length: count }, (_, i) => ({
    service_id: service.id,
    subdomain: numbered('site', i + 1, count),
    folder: scaleSiteFolder(i + 1, count),
    eliminable: 1,
    created_at: now,
  }));
  const bad = rows.find((row) => !isSubdomainName(row.subdomain) || !isServiceFolder(row.folder));
  if (bad) throw new Error(`Invalid scale site ${bad.subdomain}`);
  await hosting.changes.change(service, (trx) => inChunks(rows, (chunk) => hostingRepository.insertSites(trx, chunk)));
  return rows.length;
}
