import type {
  AccountUser,
  AccountUserCreateParams,
  AccountUsersListData,
  AccountUsersListParams,
} from '@panel247/contract/account-users';
import type { ActivityFieldChange } from '@panel247/contract/activity';
import type { Language } from '@panel247/contract/constants';
import type { Db } from '../../db/database.ts';
import { listWindowOf } from '../../db/list-query.ts';
import { ConflictError, FieldErrors, ForbiddenError, NotFoundError } from '../../errors.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { Actor } from '../auth/actor.ts';
import { authEvent } from '../auth/auth-event.ts';
import type { ClientCall } from '../auth/client-call.ts';
import type { SecurityMail } from '../auth/security-mail.ts';
import type { PermissionService } from '../permission/permission.service.ts';
import type { EventBus } from '../realtime/event-bus.ts';
import { type AccountUserRow, accountUsersRepository } from './account-users.repository.ts';
import type { UserInvitations } from './invitations.ts';

/** What ends a user's access at once, on every instance. */
export interface AccessEnders {
  /** Their sessions (their open pages are told through the realtime channel). */
  endSessions(userId: number): Promise<void>;
  /** Their API tokens. */
  endTokens(userId: number): Promise<number>;
  /** Their TOTP app, recovery codes and passkeys; they set a factor up again at their next login. */
  resetSecondFactor(userId: number): Promise<void>;
}

export interface AccountUsersDeps {
  db: Db;
  events: EventBus;
  permissions: PermissionService;
  activity: ActivityService;
  invitations: UserInvitations;
  access: AccessEnders;
  mail: SecurityMail;
  now: () => number;
}

function invitationOf(row: AccountUserRow, now: number): AccountUser['invitation'] {
  if (Number(row.has_password) === 1) return null;
  if (row.invitation_expires_at === null || row.invitation_cancelled_at !== null) return 'cancelled';
  return Number(row.invitation_expires_at) <= now ? 'expired' : 'pending';
}

function itemOf(row: AccountUserRow, actor: Actor, now: number): AccountUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    lastLoginAt: row.last_login_at === null ? null : Number(row.last_login_at),
    lastLoginIp: row.last_login_ip ?? '',
    // SQLite answers the EXISTS with 0/1, PostgreSQL with a boolean.
    twoFactor: Boolean(Number(row.second_factor)),
    disabled: row.disabled_at !== null,
    manageUsers: row.manage_users === 1,
    invitation: invitationOf(row, now),
    self: row.id === actor.userId,
  };
}

const flagChange = (field: string, before: boolean, after: boolean): ActivityFieldChange[] => [
  { field, before: String(before), after: String(after) },
];

/**
 * An account's users, managed by its users who hold the right to manage users. To anyone else
 * every call answers not-found, and another account's user is exactly as unknown as a missing
 * one. Nobody changes their own access or their own right here, and the account always keeps
 * a user who holds that right and can log in.
 */
export class AccountUsersService {
  constructor(private readonly deps: AccountUsersDeps) {}

  /** The guard of every call: the caller holds the right to manage users (never via a token). */
  async assertManager(actor: Actor): Promise<void> {
    if (!(await this.deps.permissions.mayManageUsers(actor))) throw new NotFoundError();
  }

  async list(actor: Actor, params: AccountUsersListParams): Promise<AccountUsersListData> {
    await this.assertManager(actor);
    const window = listWindowOf({ ...params, page: params.page ?? 1 });
    const { rows, total } = await accountUsersRepository.page(this.deps.db, actor.accountId, window);
    const now = this.deps.now();
    return { users: rows.map((row) => itemOf(row, actor, now)), total };
  }

  async get(actor: Actor, userId: number): Promise<AccountUser> {
    await this.assertManager(actor);
    return itemOf(await this.target(actor, userId), actor, this.deps.now());
  }

  /** The user of the caller's account, or not-found (a foreign id included). */
  async target(actor: Actor, userId: number): Promise<AccountUserRow> {
    const row = await accountUsersRepository.one(this.deps.db, actor.accountId, userId);
    if (!row) throw new NotFoundError();
    return row;
  }

  async create(actor: Actor, call: ClientCall, params: AccountUserCreateParams, language: Language) {
    await this.assertManager(actor);
    const { db, now } = this.deps;
    const id = await accountUsersRepository.insertInvited(db, {
      accountId: actor.accountId,
      username: params.username,
      email: params.email,
      now: now(),
    });
    if (id === undefined) throw FieldErrors.one('username', 'users.username_taken');
    await this.invite(actor, call, { id, username: params.username, email: params.email }, language);
    await this.record(call, actor, 'users.create', params.username, [
      { field: 'email', before: null, after: params.email },
    ]);
    return { id };
  }

  async resendInvitation(actor: Actor, call: ClientCall, userId: number, language: Language): Promise<void> {
    await this.assertManager(actor);
    const row = await this.target(actor, userId);
    if (Number(row.has_password) === 1) throw new ConflictError('users.error.no_invitation');
    if (!row.email) throw new ConflictError('users.error.no_email');
    await this.invite(actor, call, row, language);
    await this.record(call, actor, 'users.invitation_resend', row.username);
  }

  async cancelInvitation(actor: Actor, call: ClientCall, userId: number): Promise<void> {
    await this.assertManager(actor);
    const row = await this.target(actor, userId);
    if (!(await accountUsersRepository.cancelInvitation(this.deps.db, row.id, this.deps.now()))) {
      throw new ConflictError('users.error.no_invitation');
    }
    await this.record(call, actor, 'users.invitation_cancel', row.username);
  }

  async setManageUsers(actor: Actor, call: ClientCall, userId: number, value: boolean): Promise<void> {
    await this.assertManager(actor);
    const row = await this.changeable(actor, userId, 'users.error.own_right');
    if ((row.manage_users === 1) === value) return;
    await this.deps.permissions.setManageUsers(actor.accountId, row.id, value);
    // the user's menus follow at once (the permission list carries the right)
    await this.deps.events.publish({ type: 'permissions.changed', userIds: [row.id], resourceId: null });
    await this.record(call, actor, 'users.manager', row.username, flagChange('manageUsers', !value, value));
  }

  /** Disables a user: no login, and their sessions and tokens end at once. */
  async disable(actor: Actor, call: ClientCall, userId: number, language: Language): Promise<void> {
    await this.assertManager(actor);
    const row = await this.changeable(actor, userId);
    if (row.disabled_at !== null) return;
    await this.deps.permissions.keepingAManager(actor.accountId, (db) =>
      accountUsersRepository.setDisabled(db, actor.accountId, row.id, this.deps.now()),
    );
    await this.endAccess(row.id);
    await this.tellUser(actor, call, row, 'disabled', language);
    await this.record(call, actor, 'users.disable', row.username, flagChange('disabled', false, true));
  }

  async enable(actor: Actor, call: ClientCall, userId: number): Promise<void> {
    await this.assertManager(actor);
    const row = await this.changeable(actor, userId);
    if (row.disabled_at === null) return;
    await accountUsersRepository.setDisabled(this.deps.db, actor.accountId, row.id, null);
    authEvent(call, 'auth.enabled_by_manager', actor.domainName, row.username);
    await this.record(call, actor, 'users.enable', row.username, flagChange('disabled', true, false));
  }

  /** Their second factors gone; they set one up again at their next login (their sessions end). */
  async resetSecondFactor(actor: Actor, call: ClientCall, userId: number, language: Language): Promise<void> {
    await this.assertManager(actor);
    const row = await this.changeable(actor, userId);
    await this.deps.access.resetSecondFactor(row.id);
    await this.deps.access.endSessions(row.id);
    await this.tellUser(actor, call, row, 'twofactor_reset', language);
    await this.record(call, actor, 'users.twofactor_reset', row.username);
  }

  async endSessions(actor: Actor, call: ClientCall, userId: number): Promise<void> {
    await this.assertManager(actor);
    const row = await this.changeable(actor, userId);
    await this.deps.access.endSessions(row.id);
    authEvent(call, 'auth.sessions_ended_by_manager', actor.domainName, row.username);
    await this.record(call, actor, 'users.sessions_end', row.username);
  }

  async remove(actor: Actor, call: ClientCall, userId: number): Promise<void> {
    await this.assertManager(actor);
    const row = await this.changeable(actor, userId);
    // Disabled first (where the last-manager rule is checked), so that nothing new starts while
    // their sessions end and their open pages are told; the row takes the rest with it.
    await this.deps.permissions.keepingAManager(actor.accountId, (db) =>
      accountUsersRepository.setDisabled(db, actor.accountId, row.id, this.deps.now()),
    );
    await this.endAccess(row.id);
    await accountUsersRepository.remove(this.deps.db, actor.accountId, row.id);
    await this.record(call, actor, 'users.remove', row.username);
  }

  /** Writes one entry of the `users` area of the activity log. */
  record(call: ClientCall, actor: Actor, action: string, target: string, changes?: ActivityFieldChange[]) {
    return this.deps.activity.recordUsersChange(call, actor, { action, target, ...(changes ? { changes } : {}) });
  }

  private invite(
    actor: Actor,
    call: ClientCall,
    user: { id: number; username: string; email: string },
    language: Language,
  ) {
    return this.deps.invitations.send(
      {
        userId: user.id,
        username: user.username,
        email: user.email,
        domainName: actor.domainName,
        brandId: actor.brandId,
        by: actor.username,
      },
      call,
      language,
    );
  }

  /** Another user of the account: nobody changes their own access or right here. */
  private async changeable(actor: Actor, userId: number, selfKey = 'users.error.self'): Promise<AccountUserRow> {
    const row = await this.target(actor, userId);
    if (row.id === actor.userId) throw new ForbiddenError(selfKey);
    return row;
  }

  private async endAccess(userId: number): Promise<void> {
    await this.deps.access.endSessions(userId);
    await this.deps.access.endTokens(userId);
  }

  /** The affected user's own log and, when they have an address, a security mail. */
  private async tellUser(
    actor: Actor,
    call: ClientCall,
    row: AccountUserRow,
    change: 'disabled' | 'twofactor_reset',
    language: Language,
  ) {
    authEvent(call, `auth.${change}_by_manager`, actor.domainName, row.username);
    await this.deps.mail.send(
      { userId: row.id, username: row.username, domainName: actor.domainName, brandId: actor.brandId },
      call,
      {
        kind: `security_${change}`,
        subjectKey: `users.mail_subject_${change}`,
        bodyKey: `users.mail_body_${change}`,
        language,
        vars: { by: actor.username },
      },
    );
  }
}
