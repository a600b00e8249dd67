import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { WebRedirectionTable, WebSiteTable } from '../../db/schema.ts';
import { hostingRepository } from './hosting.repository.ts';

/**
 * The rows a web change may replace, kept with its entry in the work log: if the node refuses the
 * change (a site folder that turned out to be a link, a value its renderer refuses), they are put
 * back. Only the hosts the change touches, or the whole service's rows when it names none.
 */
export interface WebUndo {
  settings: { php_version: string; parking: number } | null;
  /** The subdomains whose rows these are; null: every row of the service. */
  hosts: string[] | null;
  sites: Selectable<WebSiteTable>[];
  redirections: Selectable<WebRedirectionTable>[];
}

export async function webSnapshot(trx: Db, serviceId: number, hosts?: readonly string[]): Promise<WebUndo> {
  const settings = await hostingRepository.settings(trx, serviceId);
  return {
    settings: settings ? { php_version: settings.php_version, parking: settings.parking } : null,
    hosts: hosts ? [...hosts] : null,
    sites: await hostingRepository.sites(trx, serviceId, hosts),
    redirections: await hostingRepository.redirections(trx, serviceId, hosts),
  };
}

/**
 * Puts the rows back as the snapshot had them: rows made since go, rows changed or removed
 * come back with their ids. (A removed site's certificate order row went with it and is not
 * brought back: the renewal round orders again for a site with SSL whose certificate nears its end.)
 */
export async function restoreWebSnapshot(trx: Db, serviceId: number, undo: WebUndo, now: number): Promise<void> {
  if (undo.settings) await hostingRepository.updateSettings(trx, serviceId, { ...undo.settings, updated_at: now });
  const hosts = undo.hosts ?? undefined;
  await putBack(
    await hostingRepository.sites(trx, serviceId, hosts),
    undo.sites,
    (ids) => trx.deleteFrom('web_sites').where('service_id', '=', serviceId).where('id', 'in', ids).execute(),
    (row) =>
      trx
        .insertInto('web_sites')
        .values(row)
        .onConflict((conflict) => conflict.column('id').doUpdateSet(row))
        .execute(),
  );
  await putBack(
    await hostingRepository.redirections(trx, serviceId, hosts),
    undo.redirections,
    (ids) => trx.deleteFrom('web_redirections').where('service_id', '=', serviceId).where('id', 'in', ids).execute(),
    (row) =>
      trx
        .insertInto('web_redirections')
        .values(row)
        .onConflict((conflict) => conflict.column('id').doUpdateSet(row))
        .execute(),
  );
}

/** The rows now (`current`) made the kept ones again: those made since removed, the kept ones written back. */
async function putBack<R extends { id: number }>(
  current: R[],
  kept: R[],
  remove: (ids: number[]) => Promise<unknown>,
  write: (row: R) => Promise<unknown>,
): Promise<void> {
  const keep = new Set(kept.map((row) => row.id));
  const made = current.filter((row) => !keep.has(row.id)).map((row) => row.id);
  if (made.length > 0) await remove(made);
  for (const row of kept) await write(row);
}
