import {
  type AccountUserPermissionsCopyData,
  type AccountUserPermissionsData,
  type AccountUserPermissionsParams,
  higherLevel,
  lowerLevel,
  mayGrantLevel,
} from '@panel247/contract/account-users';
import type { ActivityFieldChange } from '@panel247/contract/activity';
import { PERMISSION_KEYS, type PermissionKey, type PermissionLevel } from '@panel247/contract/constants';
import type { PermissionMap } from '@panel247/contract/permissions';
import { listWindowOf } from '../../db/list-query.ts';
import { ForbiddenError, NotFoundError } from '../../errors.ts';
import type { Actor } from '../auth/actor.ts';
import type { ClientCall } from '../auth/client-call.ts';
import { type GrantLevels, noLevels, type PermissionService } from '../permission/permission.service.ts';
import type { EventBus } from '../realtime/event-bus.ts';
import type { AccountUsersService } from './account-users.service.ts';

/** `wanted`, held to what the editor may set there (their own level, or the one already held). */
function capped(editor: PermissionLevel, current: PermissionLevel, wanted: PermissionLevel): PermissionLevel {
  return lowerLevel(wanted, higherLevel(editor, current));
}

/** Whether a key is about a part the resource has (the others count for nothing). */
function applies(key: PermissionKey, resource: Pick<GrantLevels, 'hasDomain' | 'hasService' | 'hasMail'>): boolean {
  if (key.startsWith('domain')) return resource.hasDomain;
  if (key.startsWith('servicemail')) return resource.hasMail;
  return resource.hasService;
}

/** What changed between two sets of levels, for the activity log (`reference:key`). */
function levelChanges(reference: string, before: PermissionMap, after: PermissionMap): ActivityFieldChange[] {
  return PERMISSION_KEYS.filter((key) => before[key] !== after[key]).map((key) => ({
    field: `${reference}:${key}`,
    before: before[key],
    after: after[key],
  }));
}

/**
 * A manager's editor of another user's permissions: only the resources the manager sees, and
 * on each never more than the manager holds there (a level already above it may be kept or
 * lowered). A change reaches the user's open pages at once (`permissions.changed`).
 */
export class UserPermissions {
  constructor(
    private readonly users: AccountUsersService,
    private readonly permissions: PermissionService,
    private readonly events: EventBus,
  ) {}

  /** One page of the editor's resources (filtered by reference), with the user's levels and the editor's. */
  async page(actor: Actor, params: AccountUserPermissionsParams): Promise<AccountUserPermissionsData> {
    await this.users.assertManager(actor);
    const user = await this.users.target(actor, params.id);
    const window = listWindowOf({ ...params, page: params.page ?? 1 });
    const filter = window.filter.toLowerCase();
    const visible = (await this.permissions.list(actor)).permissions.filter((entry) =>
      entry.reference.toLowerCase().includes(filter),
    );
    if (window.order === 'desc') visible.reverse();
    const ids = visible.slice(window.offset, window.offset + window.limit).map((entry) => entry.id);
    const [editor, held] = await Promise.all([
      this.permissions.grantsOf(actor, ids),
      this.permissions.grantsOf({ userId: user.id, accountId: actor.accountId }, ids),
    ]);
    const resources = ids.flatMap((id) => {
      const own = editor.get(id);
      if (!own) return [];
      return [
        {
          id,
          reference: own.reference,
          hasDomain: own.hasDomain,
          hasService: own.hasService,
          hasMail: own.hasMail,
          levels: held.get(id)?.stored ?? noLevels(),
          max: own.effective,
        },
      ];
    });
    return { resources, total: visible.length };
  }

  /** Sets the user's levels on one resource; a key raised beyond the editor's own is refused. */
  async set(
    actor: Actor,
    call: ClientCall,
    params: { id: number; resource: number; levels: PermissionMap },
  ): Promise<void> {
    await this.users.assertManager(actor);
    const user = await this.users.target(actor, params.id);
    const own = await this.editorGrant(actor, params.resource);
    const current = (await this.heldBy(actor, user.id, [params.resource])).get(params.resource)?.stored ?? noLevels();
    for (const key of PERMISSION_KEYS) {
      if (!mayGrantLevel(own.effective[key], current[key], params.levels[key])) {
        throw new ForbiddenError('users.error.beyond_own_rights');
      }
    }
    const changes = levelChanges(own.reference, current, params.levels);
    if (changes.length === 0) return;
    await this.permissions.setGrant(user.id, params.resource, params.levels);
    await this.events.publish({ type: 'permissions.changed', userIds: [user.id], resourceId: params.resource });
    await this.users.record(call, actor, 'users.permissions_set', user.username, changes);
  }

  /**
   * "Same as another user": on every resource the editor sees, the user gets the other user's
   * levels, each held to what the editor may give. Answers how many resources changed and how
   * many keys were held lower than the other user's.
   */
  async copy(
    actor: Actor,
    call: ClientCall,
    params: { id: number; from: number },
  ): Promise<AccountUserPermissionsCopyData> {
    await this.users.assertManager(actor);
    const user = await this.users.target(actor, params.id);
    const from = await this.users.target(actor, params.from);
    const ids = (await this.permissions.list(actor)).permissions.map((entry) => entry.id);
    const [editor, held, model] = await Promise.all([
      this.permissions.grantsOf(actor, ids),
      this.heldBy(actor, user.id, ids),
      this.heldBy(actor, from.id, ids),
    ]);
    let changed = 0;
    let limited = 0;
    const changes: ActivityFieldChange[] = [];
    const changedIds: number[] = [];
    for (const [id, own] of editor) {
      const current = held.get(id)?.stored ?? noLevels();
      const wanted = model.get(id)?.stored ?? noLevels();
      const next = { ...current };
      for (const key of PERMISSION_KEYS) {
        next[key] = capped(own.effective[key], current[key], wanted[key]);
        if (next[key] !== wanted[key] && applies(key, own)) limited += 1;
      }
      const resourceChanges = levelChanges(own.reference, current, next);
      if (resourceChanges.length === 0) continue;
      await this.permissions.setGrant(user.id, id, next);
      changes.push(...resourceChanges);
      changedIds.push(id);
      changed += 1;
    }
    if (changed > 0) {
      await this.events.publish({ type: 'permissions.changed', userIds: [user.id], resourceId: null });
      await this.users.record(call, actor, 'users.permissions_copy', user.username, [
        { field: 'from', before: null, after: from.username },
        ...changes.slice(0, 50),
      ]);
    }
    return { changed, limited };
  }

  /** The editor's grant on a resource they can see; not-found otherwise. */
  private async editorGrant(actor: Actor, resourceId: number): Promise<GrantLevels> {
    await this.permissions.permissionSet(actor, resourceId);
    const own = (await this.permissions.grantsOf(actor, [resourceId])).get(resourceId);
    if (!own) throw new NotFoundError();
    return own;
  }

  private heldBy(actor: Actor, userId: number, ids: number[]) {
    return this.permissions.grantsOf({ userId, accountId: actor.accountId }, ids);
  }
}
