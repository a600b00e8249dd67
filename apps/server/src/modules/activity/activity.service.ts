import {
  ACTIVITY_EXPORT_MAX,
  ACTIVITY_VIA,
  type ActivityArea,
  type ActivityEntry,
  type ActivityExportQuery,
  type ActivityFieldChange,
  type ActivityListData,
  type ActivityListQuery,
  type ActivityVia,
  activityAreaOf,
  permissionKeysOfArea,
} from '@panel247/contract/activity';
import type { PermissionKey } from '@panel247/contract/constants';
import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ActivityLogTable } from '../../db/schema.ts';
import type { Logger } from '../../logger.ts';
import type { Actor } from '../auth/actor.ts';
import type { ClientCall } from '../auth/client-call.ts';
import type { PermissionService } from '../permission/permission.service.ts';
import { type ActivityFilter, type ActivityReader, activityRepository } from './activity.repository.ts';
import { toActivityCsv } from './activity-csv.ts';
import type { SecurityEvent } from './activity-notes.ts';
import { actionOfRoute, changesFromParams, idFieldsOfRoute } from './activity-summary.ts';

/**
 * Security events that are steps of a login already logged as such (the code asked for, the
 * passkey that finished it): the log keeps the login, its failures and the security changes.
 */
const STEPS_NOT_LOGGED = new Set([
  'auth.second_factor_asked',
  'auth.passkey_login',
  'auth.passkey_second_factor',
  'auth.captcha_failed',
]);

const DAY = 86_400;
const MAX_USERS_IN_FILTER = 200;

function dayStart(value: string): number | undefined {
  return value === '' ? undefined : Math.floor(Date.parse(`${value}T00:00:00Z`) / 1000);
}

function parseChanges(json: string): ActivityFieldChange[] {
  try {
    const list = JSON.parse(json) as { f: string; b: string | null; a: string | null }[];
    return list.map((change) => ({ field: change.f, before: change.b, after: change.a }));
  } catch {
    return [];
  }
}

/**
 * The customer's activity log: every change made through the panel (recorded by the API router
 * once the call succeeded, from what the guard allowed and the service noted) and every login,
 * failed login and security change. Readers see what their permissions show them now.
 */
export class ActivityService {
  constructor(
    private readonly db: Db,
    private readonly permissions: PermissionService,
    private readonly options: { retentionDays: number; now: () => number; log: Logger },
  ) {}

  /** A succeeded change; a failure to write it is logged and never undoes the change. */
  async recordChange(
    call: Pick<ClientCall, 'ip'>,
    actor: Actor,
    route: { url: string; activityAction?: string },
    params: unknown,
  ): Promise<void> {
    const notes = actor.activity;
    if (!notes?.change) return;
    const { resourceId, key } = notes.change;
    const changes = [
      ...(notes.changes ?? changesFromParams(params, idFieldsOfRoute(route.url))),
      // the transaction ids the registry can find the change by (EPP)
      ...(notes.registry ?? []).map((line) => ({ field: 'registry', before: null, after: line })),
    ];
    await this.write([
      {
        account_id: actor.accountId,
        user_id: actor.userId,
        username: actor.username,
        at: this.options.now(),
        ip: call.ip,
        via: actor.tokenScope ? 'api' : 'web',
        resource_id: resourceId,
        permission_key: key,
        area: activityAreaOf(key),
        action: route.activityAction ?? actionOfRoute(route.url),
        target: (notes.target ?? '').slice(0, 300),
        changes: JSON.stringify(changes.map((c) => ({ f: c.field, b: c.before, a: c.after }))),
      },
    ]);
  }

  /**
   * A change to the account's users (an invitation, a permission, a user's access): shown to the
   * users who manage users. `target` is the user changed; `changes` what changed on them.
   */
  async recordUsersChange(
    call: Pick<ClientCall, 'ip'>,
    actor: Actor,
    change: { action: string; target: string; changes?: ActivityFieldChange[] },
  ): Promise<void> {
    await this.write([
      {
        account_id: actor.accountId,
        user_id: actor.userId,
        username: actor.username,
        at: this.options.now(),
        ip: call.ip,
        via: 'web',
        resource_id: null,
        area: 'users',
        action: change.action.slice(0, 64),
        target: change.target.slice(0, 300),
        changes: JSON.stringify((change.changes ?? []).map((c) => ({ f: c.field, b: c.before, a: c.after }))),
      },
    ]);
  }

  /** Logins, failures and security changes of users that exist (guesses at other names are not). */
  async recordSecurityEvents(call: Pick<ClientCall, 'ip'>, actor: Actor | undefined, events: SecurityEvent[]) {
    const rows: Insertable<ActivityLogTable>[] = [];
    for (const event of events) {
      if (STEPS_NOT_LOGGED.has(event.event)) continue;
      const owner =
        actor && actor.username === event.username && actor.domainName === event.domainName
          ? { account_id: actor.accountId, user_id: actor.userId }
          : await activityRepository.findLoginUser(this.db, event.domainName, event.username);
      if (!owner) continue;
      rows.push({
        account_id: owner.account_id,
        user_id: owner.user_id,
        username: event.username,
        at: this.options.now(),
        ip: call.ip,
        via: actor?.tokenScope ? 'api' : 'web',
        resource_id: null,
        area: 'security',
        action: event.event.slice(0, 64),
      });
    }
    await this.write(rows);
  }

  /**
   * An event of a resource that no panel user caused (the mail server refusing a mailbox's mail
   * over its sending limit): it shows to the users who can see `key` on the resource, under `who`
   * (the mailbox) and `via` (how it happened: `smtp`). A failure to write it is logged.
   */
  async recordResourceEvent(event: {
    accountId: number;
    resourceId: number;
    key: PermissionKey;
    who: string;
    ip: string;
    via: ActivityVia;
    action: string;
    target: string;
    changes?: ActivityFieldChange[];
  }): Promise<void> {
    await this.write([
      {
        account_id: event.accountId,
        user_id: null,
        username: event.who.slice(0, 64),
        at: this.options.now(),
        ip: event.ip.slice(0, 64),
        via: event.via,
        resource_id: event.resourceId,
        permission_key: event.key,
        area: activityAreaOf(event.key),
        action: event.action.slice(0, 64),
        target: event.target.slice(0, 300),
        changes: JSON.stringify((event.changes ?? []).map((c) => ({ f: c.field, b: c.before, a: c.after }))),
      },
    ]);
  }

  private async write(rows: Insertable<ActivityLogTable>[]) {
    try {
      await activityRepository.insert(this.db, rows);
    } catch (error) {
      this.options.log.error({ err: error, event: 'activity.write_failed' }, 'activity log write failed');
    }
  }

  async list(actor: Actor, query: ActivityListQuery): Promise<ActivityListData> {
    const { reader, filter } = await this.scope(actor, query);
    const [rows, total, users] = await Promise.all([
      activityRepository.page(this.db, reader, filter, (query.page - 1) * query.pageSize, query.pageSize),
      activityRepository.count(this.db, reader, filter),
      activityRepository.usernames(this.db, reader, filter.resourceId, MAX_USERS_IN_FILTER),
    ]);
    return { entries: rows.map(toEntry), total, users };
  }

  /** The same entries as the list, newest first, at most ACTIVITY_EXPORT_MAX of them. */
  async exportCsv(actor: Actor, query: ActivityExportQuery, areaName: (area: ActivityArea) => string) {
    const { reader, filter } = await this.scope(actor, query);
    const rows = await activityRepository.page(this.db, reader, filter, 0, ACTIVITY_EXPORT_MAX);
    return toActivityCsv(rows.map(toEntry), areaName);
  }

  /** Removes entries past the retention; a DELETE by date, so running it twice is harmless. */
  async purge(): Promise<number> {
    if (this.options.retentionDays <= 0) return 0;
    return activityRepository.purgeBefore(this.db, this.options.now() - this.options.retentionDays * DAY);
  }

  /** The reader and the filter; a resource the reader cannot see answers as an unknown id. */
  private async scope(actor: Actor, query: ActivityExportQuery) {
    if (query.resource !== undefined) await this.permissions.permissionSet(actor, query.resource);
    const reader: ActivityReader = {
      userId: actor.userId,
      accountId: actor.accountId,
      manageUsers: await this.permissions.mayManageUsers(actor),
      ...(actor.tokenScope ? { resourceIds: [...actor.tokenScope.keys()] } : {}),
    };
    const from = dayStart(query.from);
    const to = dayStart(query.to);
    const filter: ActivityFilter = {
      ...(query.resource !== undefined ? { resourceId: query.resource } : {}),
      ...(query.user ? { username: query.user } : {}),
      ...(query.area === 'security' || query.area === 'users' ? { accountArea: query.area } : {}),
      ...(query.area && query.area !== 'security' && query.area !== 'users'
        ? { keys: permissionKeysOfArea(query.area) }
        : {}),
      ...(from !== undefined ? { fromAt: from } : {}),
      ...(to !== undefined ? { beforeAt: to + DAY } : {}),
    };
    return { reader, filter };
  }
}

type Row = Awaited<ReturnType<typeof activityRepository.page>>[number];

function toEntry(row: Row): ActivityEntry {
  return {
    id: row.id,
    at: Number(row.at),
    user: row.username,
    ip: row.ip,
    via: (ACTIVITY_VIA as readonly string[]).includes(row.via) ? (row.via as ActivityVia) : 'web',
    resource: row.resource_id === null ? null : { id: row.resource_id, reference: row.reference ?? '' },
    area: row.area as ActivityArea,
    action: row.action,
    target: row.target,
    changes: parseChanges(row.changes),
  };
}
