import {
  isActionable,
  isVisible,
  PERMISSION_KEYS,
  type PermissionKey,
  type PermissionLevel,
} from '@panel247/contract/constants';
import type { PermissionListData, PermissionMap, PermissionSetData } from '@panel247/contract/permissions';
import type { Db } from '../../db/database.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors.ts';
import { noteAuthorizedChange } from '../activity/activity-notes.ts';
import type { Actor } from '../auth/actor.ts';
import type { EventBus } from '../realtime/event-bus.ts';
import { permissionRepository } from './permission.repository.ts';

type Grant = NonNullable<Awaited<ReturnType<typeof permissionRepository.findGrant>>>;

/** A key only counts when the resource has the part it is about (no domain, no domain keys). */
function partOf(key: PermissionKey): 'has_domain' | 'has_service' | 'has_mail' {
  if (key.startsWith('domain')) return 'has_domain';
  if (key.startsWith('servicemail')) return 'has_mail';
  return 'has_service';
}

function effectiveLevels(grant: Pick<Grant, 'has_domain' | 'has_service' | 'has_mail' | PermissionKey>): PermissionMap {
  const map = {} as Record<PermissionKey, PermissionLevel>;
  for (const key of PERMISSION_KEYS) map[key] = grant[partOf(key)] === 1 ? grant[key] : 'disabled';
  return map;
}

/** A token's level caps the user's: a read-only token turns every `write` into `read`. */
function capLevels(levels: PermissionMap, cap: 'read' | 'write'): PermissionMap {
  if (cap === 'write') return levels;
  const capped = {} as Record<PermissionKey, PermissionLevel>;
  for (const key of PERMISSION_KEYS) capped[key] = levels[key] === 'write' ? 'read' : levels[key];
  return capped;
}

type Scope = Pick<Actor, 'userId' | 'accountId' | 'tokenScope'>;

/** A user's grant on a resource as a manager's editor reads it. */
export interface GrantLevels {
  reference: string;
  hasDomain: boolean;
  hasService: boolean;
  hasMail: boolean;
  /** As stored: what a save keeps for the parts the resource does not have now. */
  stored: PermissionMap;
  /** As they count: a key of a part the resource lacks is disabled. */
  effective: PermissionMap;
}

/** Every key disabled: a user without a grant on a resource. */
export function noLevels(): PermissionMap {
  return Object.fromEntries(PERMISSION_KEYS.map((key) => [key, 'disabled'])) as PermissionMap;
}

/** What a call needs on a permission key: see `authorize`. */
export type AccessNeed = 'visible' | 'action' | 'secret';

export interface AuthorizedResource {
  id: number;
  reference: string;
  referencePunycode: string;
  levels: PermissionMap;
  isRedirAndParking: boolean;
  /** Whether the resource has a hosting service (then its domain's zone can be hosted here). */
  hasService: boolean;
}

/**
 * Permissions and the guard every resource route goes through. A resource the account does not
 * hold, or that the user cannot see at all, answers exactly like a missing one (404); a visible
 * resource without the write level for a change answers 403 and is logged.
 */
export class PermissionService {
  private readonly listCache = new Map<
    number,
    { data: PermissionListData; json: string; until: number; epoch: number | undefined }
  >();

  /**
   * With `cache`, a user's permission list is reused for `cache.seconds` (it is the largest answer
   * the panel gives: 10,000 resources take tens of milliseconds to read) and dropped at once on a
   * `permissions.changed` event for that user. Only the list is cached: `authorize`, which guards
   * every call, always reads the database.
   */
  constructor(
    private readonly db: Db,
    private readonly cache?: { events: EventBus; seconds: number; now: () => number },
  ) {
    cache?.events.subscribe((event) => {
      if (event.type === 'permissions.changed') for (const id of event.userIds) this.listCache.delete(id);
    });
  }

  async list(actor: Actor): Promise<PermissionListData> {
    return (await this.listWithJson(actor)).data;
  }

  /** The list and its serialised form: serialising 10,000 entries costs more than sending them. */
  async listWithJson(actor: Actor): Promise<{ data: PermissionListData; json: string }> {
    // A token's list is its own subset of the user's: never the user's cached entry.
    if (actor.tokenScope) {
      const data = await this.readList(actor);
      return { data, json: JSON.stringify(data) };
    }
    const now = this.cache?.now() ?? 0;
    const cached = this.listCache.get(actor.userId);
    // Only while no permissions.changed event can have been missed since the entry was cached.
    const epoch = this.cache?.events.epoch;
    if (cached && cached.until > now && epoch !== undefined && cached.epoch === epoch) return cached;
    const data = await this.readList(actor);
    const entry = { data, json: JSON.stringify(data), until: now + (this.cache?.seconds ?? 0), epoch };
    if (!this.cache || epoch === undefined) return entry;
    if (this.listCache.size >= 1000) this.listCache.delete(this.listCache.keys().next().value as number);
    this.listCache.set(actor.userId, entry);
    return entry;
  }

  private async readList(actor: Actor): Promise<PermissionListData> {
    const [all, manageUsers] = await Promise.all([
      permissionRepository.listVisible(this.db, actor),
      this.mayManageUsers(actor),
    ]);
    const scope = actor.tokenScope;
    const rows = scope ? all.filter((row) => scope.has(row.id)) : all;
    return {
      manageUsers,
      permissions: rows.map((row) => ({
        id: row.id,
        reference: row.reference,
        hasDomain: row.has_domain === 1 && isVisible(row.domain),
        hasService: row.has_service === 1 && isVisible(row.service),
        hasMail: row.has_mail === 1 && isVisible(row.servicemail),
      })),
    };
  }

  private async visibleGrant(actor: Scope, resourceId: number) {
    // A resource outside a token's scope is as unknown as another account's.
    const cap = actor.tokenScope ? actor.tokenScope.get(resourceId) : 'write';
    if (!cap) throw new NotFoundError();
    const grant = await permissionRepository.findGrant(this.db, actor, resourceId);
    if (!grant) throw new NotFoundError();
    const levels = capLevels(effectiveLevels(grant), cap);
    if (!PERMISSION_KEYS.some((key) => isVisible(levels[key]))) throw new NotFoundError();
    return { grant, levels };
  }

  async permissionSet(actor: Actor, resourceId: number): Promise<PermissionSetData> {
    const { grant, levels } = await this.visibleGrant(actor, resourceId);
    const serviceExpire = grant.has_service === 1 ? (grant.service_expire_ts ?? 0) : null;
    return {
      id: resourceId,
      reference: grant.reference,
      referencePunycode: grant.reference_punycode,
      permissions: levels,
      hasDomain: grant.has_domain === 1 && isVisible(levels.domain),
      hasService: grant.has_service === 1 && isVisible(levels.service),
      hasMail: grant.has_mail === 1 && isVisible(levels.servicemail),
      domain: grant.has_domain === 1 ? { expireTS: grant.domain_expire_ts ?? 0 } : null,
      service:
        serviceExpire === null
          ? null
          : { expireTS: serviceExpire, isRedirAndParking: grant.is_redir_and_parking === 1 },
      mail: grant.has_mail === 1 ? { expireTS: grant.mail_expire_ts ?? grant.service_expire_ts ?? 0 } : null,
      dnszone: serviceExpire === null ? null : { expireTS: serviceExpire },
    };
  }

  /**
   * The guard: `visible` for reads, `action` for changes. `secret` for a read that hands out a
   * stored password or a sign-on into another application (WebFTP, phpMyAdmin, WebMail): whoever
   * holds it can change everything the right guards, so it needs the action level, yet the call
   * changes nothing (no activity entry). Returns the resource so the caller never loads it again
   * unscoped.
   */
  async authorize(actor: Actor, resourceId: number, key: PermissionKey, need: AccessNeed): Promise<AuthorizedResource> {
    const { grant, levels } = await this.visibleGrant(actor, resourceId);
    const level = levels[key];
    if (!isVisible(level)) throw new NotFoundError();
    if (need !== 'visible' && !isActionable(level)) throw new ForbiddenError();
    if (need === 'action') noteAuthorizedChange(actor.activity, resourceId, key);
    return {
      id: resourceId,
      reference: grant.reference,
      referencePunycode: grant.reference_punycode,
      levels,
      isRedirAndParking: grant.is_redir_and_parking === 1,
      hasService: grant.has_service === 1,
    };
  }

  /**
   * The account-level right to manage the account's users. Never through an API token: a token
   * reaches resources, and managing users would let it grant itself more.
   */
  async mayManageUsers(actor: Scope): Promise<boolean> {
    return !actor.tokenScope && (await permissionRepository.managesUsers(this.db, actor.userId));
  }

  /** Grants or takes the right to manage users; the account keeps a user who holds it. */
  setManageUsers(accountId: number, userId: number, value: boolean): Promise<void> {
    return this.keepingAManager(accountId, (db) => permissionRepository.setManageUsers(db, accountId, userId, value));
  }

  /**
   * Runs a change to the account's users (a right taken, a user disabled or removed) and undoes
   * it if the account is left without a user who holds the right and can log in. The account's
   * row is written first, so that two such changes of one account (two managers removing each
   * other) run one after the other and the second sees the first.
   */
  async keepingAManager(accountId: number, change: (db: Db) => Promise<unknown>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await permissionRepository.lockAccount(trx, accountId);
      await change(trx);
      if ((await permissionRepository.activeManagers(trx, accountId)).length === 0) {
        throw new ConflictError('users.error.last_manager');
      }
    });
  }

  /** Sets a user's levels on a resource (keys not given keep their value, or start disabled). */
  setGrant(userId: number, resourceId: number, levels: Partial<Record<PermissionKey, PermissionLevel>>) {
    return permissionRepository.upsertGrant(this.db, userId, resourceId, levels);
  }

  /** The users who can see the resource (whom an event about it may concern). */
  usersWhoSee(resourceId: number): Promise<number[]> {
    return permissionRepository.usersWhoSee(this.db, resourceId);
  }

  removeGrant(userId: number, resourceId: number) {
    return permissionRepository.deleteGrant(this.db, userId, resourceId);
  }

  async visibleResourceIdByReference(scope: Scope, reference: string): Promise<number | undefined> {
    const row = await permissionRepository.findVisibleIdByReference(this.db, scope, reference);
    if (row && scope.tokenScope && !scope.tokenScope.has(row.id)) return undefined;
    return row?.id;
  }

  /** A user's grants on some of the account's resources (those without one are absent). */
  async grantsOf(scope: Pick<Actor, 'userId' | 'accountId'>, ids: number[]): Promise<Map<number, GrantLevels>> {
    const result = new Map<number, GrantLevels>();
    const unique = [...new Set(ids)];
    for (let start = 0; start < unique.length; start += 500) {
      for (const grant of await permissionRepository.findGrants(this.db, scope, unique.slice(start, start + 500))) {
        const stored = Object.fromEntries(PERMISSION_KEYS.map((key) => [key, grant[key]])) as PermissionMap;
        result.set(grant.resource_id, {
          reference: grant.reference,
          hasDomain: grant.has_domain === 1,
          hasService: grant.has_service === 1,
          hasMail: grant.has_mail === 1,
          stored,
          effective: effectiveLevels(grant),
        });
      }
    }
    return result;
  }

  /**
   * The user's own visible resources among `ids`, each with the highest level the user holds on
   * any key: what a new token may be given there, at most.
   */
  async highestLevels(
    actor: Pick<Actor, 'userId' | 'accountId'>,
    ids: number[],
  ): Promise<Map<number, { reference: string; level: 'read' | 'write' }>> {
    const result = new Map<number, { reference: string; level: 'read' | 'write' }>();
    const unique = [...new Set(ids)];
    for (let start = 0; start < unique.length; start += 500) {
      const grants = await permissionRepository.findGrants(this.db, actor, unique.slice(start, start + 500));
      for (const grant of grants) {
        const levels = Object.values(effectiveLevels(grant));
        const level = levels.includes('write') ? 'write' : levels.includes('read') ? 'read' : undefined;
        if (level) result.set(grant.resource_id, { reference: grant.reference, level });
      }
    }
    return result;
  }
}
