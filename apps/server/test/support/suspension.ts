import type { Db } from '../../src/db/database.ts';

/**
 * Marks a service suspended (or lifted) in the database as the provisioning API does, for tests of
 * what a daemon then refuses; the test tells the area's servers itself (`loginsChanged`).
 */
export async function setSuspended(db: Db, serviceId: number, suspended: boolean): Promise<void> {
  await db
    .updateTable('resources')
    .set({ suspended_at: suspended ? 1_900_000_000 : null, suspended_reason: suspended ? 'unpaid' : '' })
    .where('id', '=', serviceId)
    .execute();
}
