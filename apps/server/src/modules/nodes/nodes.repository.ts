import type { Db } from '../../db/database.ts';

const COLUMNS = [
  'id',
  'name',
  'roles',
  'capacity',
  'host',
  'channel_url',
  'ipv4',
  'ipv6',
  'state',
  'created_at',
  'last_seen_at',
] as const;

/** The `nodes` rows (migration 0035): the provider's servers. */
export const nodesRepository = {
  list(db: Db) {
    return db.selectFrom('nodes').select(COLUMNS).orderBy('name').execute();
  },

  byName(db: Db, name: string) {
    return db
      .selectFrom('nodes')
      .select([...COLUMNS, 'key_hash'])
      .where('name', '=', name)
      .executeTakeFirst();
  },

  async insert(
    db: Db,
    row: {
      name: string;
      roles: string;
      capacity: number;
      host: string;
      channel_url: string;
      ipv4: string;
      ipv6: string;
      key_hash: string;
    },
    now: number,
  ): Promise<void> {
    await db
      .insertInto('nodes')
      .values({ ...row, state: 'active', created_at: now, last_seen_at: null })
      .execute();
  },

  async setState(db: Db, name: string, state: 'active' | 'draining'): Promise<boolean> {
    const result = await db.updateTable('nodes').set({ state }).where('name', '=', name).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  async remove(db: Db, name: string): Promise<boolean> {
    const result = await db.deleteFrom('nodes').where('name', '=', name).executeTakeFirst();
    return result.numDeletedRows > 0n;
  },

  async reportHostingRoot(db: Db, name: string, root: string): Promise<void> {
    await db.updateTable('nodes').set({ hosting_root: root }).where('name', '=', name).execute();
  },

  /** Servers never heard from, or last heard from before `since` (epoch seconds). */
  async countSilentSince(db: Db, since: number): Promise<number> {
    const row = await db
      .selectFrom('nodes')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where((eb) => eb.or([eb('last_seen_at', 'is', null), eb('last_seen_at', '<', since)]))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  },

  async seen(db: Db, name: string, now: number): Promise<void> {
    await db.updateTable('nodes').set({ last_seen_at: now }).where('name', '=', name).execute();
  },
};
