import { PERMISSION_KEYS, type PermissionKey } from '@panel247/contract/constants';
import type { ExpressionBuilder, Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ActivityLogTable, Database } from '../../db/schema.ts';

/** Who reads the log, and (for an API token) the only resources the call may reach. */
export interface ActivityReader {
  userId: number;
  accountId: number;
  resourceIds?: number[];
  /** Holds the right to manage the account's users: their changes show too. */
  manageUsers?: boolean;
}

/** The filters, already turned into what the table holds (epoch seconds, permission keys). */
export interface ActivityFilter {
  resourceId?: number;
  username?: string;
  keys?: PermissionKey[];
  /** The account-wide entries of one area (no resource): logins and security changes, or users'. */
  accountArea?: 'security' | 'users';
  fromAt?: number;
  beforeAt?: number;
}

type Row = Database & { e: ActivityLogTable; r: Database['resources']; g: Database['permission_grants'] };
type Eb = ExpressionBuilder<Row, 'e' | 'r' | 'g'>;

/** The resource's part a key belongs to: a key of a part the resource lost shows nothing. */
function partColumn(key: PermissionKey): 'r.has_domain' | 'r.has_mail' | 'r.has_service' {
  if (key.startsWith('domain')) return 'r.has_domain';
  if (key.startsWith('servicemail')) return 'r.has_mail';
  return 'r.has_service';
}

/**
 * What the reader may see: their own security events, and the changes of the account's resources
 * whose permission key they can see there now (the same levels the guard reads, so an entry shows
 * to exactly the users who could look at what it changed).
 */
function visibleTo(eb: Eb, reader: ActivityReader) {
  const ownSecurity = eb.and([eb('e.resource_id', 'is', null), eb('e.user_id', '=', reader.userId)]);
  const usersChanges = eb.and([eb('e.resource_id', 'is', null), eb('e.area', '=', 'users')]);
  const keyVisible = eb.or(
    PERMISSION_KEYS.map((key) =>
      eb.and([eb('e.permission_key', '=', key), eb(`g.${key}`, 'in', ['read', 'write']), eb(partColumn(key), '=', 1)]),
    ),
  );
  const change = eb.and([eb('r.account_id', '=', reader.accountId), keyVisible]);
  if (reader.resourceIds) {
    // a token reaches only its resources, and never the user's own security history
    return reader.resourceIds.length === 0
      ? eb.lit(false)
      : eb.and([change, eb('e.resource_id', 'in', reader.resourceIds)]);
  }
  return eb.or(reader.manageUsers ? [ownSecurity, usersChanges, change] : [ownSecurity, change]);
}

function matching(eb: Eb, filter: ActivityFilter) {
  const conditions = [];
  if (filter.resourceId !== undefined) conditions.push(eb('e.resource_id', '=', filter.resourceId));
  if (filter.username) conditions.push(eb('e.username', '=', filter.username));
  if (filter.accountArea)
    conditions.push(eb.and([eb('e.resource_id', 'is', null), eb('e.area', '=', filter.accountArea)]));
  if (filter.keys) conditions.push(eb('e.permission_key', 'in', filter.keys));
  if (filter.fromAt !== undefined) conditions.push(eb('e.at', '>=', filter.fromAt));
  if (filter.beforeAt !== undefined) conditions.push(eb('e.at', '<', filter.beforeAt));
  return eb.and(conditions);
}

function visibleEntries(db: Db, reader: ActivityReader) {
  return db
    .selectFrom('activity_log as e')
    .leftJoin('resources as r', 'r.id', 'e.resource_id')
    .leftJoin('permission_grants as g', (join) =>
      join.onRef('g.resource_id', '=', 'e.resource_id').on('g.user_id', '=', reader.userId),
    )
    .where('e.account_id', '=', reader.accountId)
    .where((eb) => visibleTo(eb as Eb, reader));
}

export const activityRepository = {
  async insert(db: Db, rows: Insertable<ActivityLogTable>[]): Promise<void> {
    if (rows.length > 0) await db.insertInto('activity_log').values(rows).execute();
  },

  /** The account and user a login names, when both exist. */
  findLoginUser(db: Db, domainName: string, username: string) {
    return db
      .selectFrom('users as u')
      .innerJoin('accounts as a', 'a.id', 'u.account_id')
      .select(['u.id as user_id', 'a.id as account_id'])
      .where('a.domain_name', '=', domainName)
      .where('u.username', '=', username)
      .executeTakeFirst();
  },

  /** One page of what the reader may see, newest first. */
  page(db: Db, reader: ActivityReader, filter: ActivityFilter, offset: number, limit: number) {
    return visibleEntries(db, reader)
      .where((eb) => matching(eb as Eb, filter))
      .select([
        'e.id',
        'e.at',
        'e.username',
        'e.ip',
        'e.via',
        'e.resource_id',
        'r.reference',
        'e.area',
        'e.action',
        'e.target',
        'e.changes',
      ])
      .orderBy('e.id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
  },

  async count(db: Db, reader: ActivityReader, filter: ActivityFilter): Promise<number> {
    const row = await visibleEntries(db, reader)
      .where((eb) => matching(eb as Eb, filter))
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** Every name in what the reader may see (of one resource when given), for the user filter. */
  async usernames(db: Db, reader: ActivityReader, resourceId: number | undefined, max: number): Promise<string[]> {
    const rows = await visibleEntries(db, reader)
      .where((eb) => matching(eb as Eb, { resourceId }))
      .select('e.username')
      .distinct()
      .orderBy('e.username')
      .limit(max)
      .execute();
    return rows.map((row) => row.username);
  },

  /** Removes what is older than the retention; answers how many rows went. */
  async purgeBefore(db: Db, beforeAt: number): Promise<number> {
    const result = await db.deleteFrom('activity_log').where('at', '<', beforeAt).executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
