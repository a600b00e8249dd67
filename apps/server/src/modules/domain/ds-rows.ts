import type { Db } from '../../db/database.ts';
import type { RegistryDs } from '../../drivers/registry/registry.driver.ts';
import { domainRepository } from './domain.repository.ts';

const keyOf = (d: { keytag: number; algorithm: number; digest: string }) =>
  `${d.keytag}/${d.algorithm}/${d.digest.toUpperCase()}`;

/**
 * Makes a domain's DS rows the registry's DS data: rows the registry no longer has go, what it
 * has that the panel did not know is added. Rows that stay keep their ids (the list's delete
 * buttons name them). Run inside the caller's transaction.
 */
export async function matchDsRows(trx: Db, resourceId: number, ds: RegistryDs[]): Promise<boolean> {
  const rows = await domainRepository.dsRecords(trx, resourceId);
  const wanted = new Set(ds.map(keyOf));
  const have = new Set(rows.map(keyOf));
  const stale = rows.filter((row) => !wanted.has(keyOf(row)));
  const fresh = ds.filter((d) => !have.has(keyOf(d)));
  for (const row of stale) await domainRepository.deleteDs(trx, resourceId, row.id);
  for (const d of fresh)
    await domainRepository.insertDs(trx, {
      resource_id: resourceId,
      keytag: d.keytag,
      algorithm: d.algorithm,
      digest_type: d.digestType,
      // the panel keeps digests as the customer's form sends them: lower-case hex
      digest: d.digest.toLowerCase(),
    });
  return stale.length > 0 || fresh.length > 0;
}
