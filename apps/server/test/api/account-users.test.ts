import type {
  AccountUserPermissionsCopyData,
  AccountUserPermissionsData,
  AccountUsersListData,
} from '@panel247/contract/account-users';
import type { ActivityListData } from '@panel247/contract/activity';
import type { ApiTokenCreatedData } from '@panel247/contract/api-tokens';
import { PERMISSION_KEYS, type PermissionKey, type PermissionLevel } from '@panel247/contract/constants';
import type { PermissionListData } from '@panel247/contract/permissions';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../src/i18n/messages.ts';
import { AdminService, allKeys } from '../../src/modules/admin/admin.service.ts';
import { LocalEventBus } from '../../src/modules/realtime/event-bus.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

/** A message as the API answers it (in the brand's default language, Spanish). */
const es = (key: string) => translate('es', key);

const levels = (overrides: Partial<Record<PermissionKey, PermissionLevel>>, base: PermissionLevel = 'disabled') => ({
  ...allKeys(base),
  ...overrides,
});

/** Every call a user manager makes about one user (the id in the path). */
const USER_CALLS: [method: 'GET' | 'POST', path: (id: number) => string, params: Record<string, string>][] = [
  ['GET', (id) => `users/${id}/`, {}],
  ['GET', (id) => `users/${id}/permissions/`, {}],
  ['POST', (id) => `users/${id}/permissions/set/`, { resource: '1', levels: JSON.stringify(allKeys('read')) }],
  ['POST', (id) => `users/${id}/permissions/copy/`, { from: '1' }],
  ['POST', (id) => `users/${id}/manager/`, { manageUsers: 'true' }],
  ['POST', (id) => `users/${id}/disable/`, {}],
  ['POST', (id) => `users/${id}/enable/`, {}],
  ['POST', (id) => `users/${id}/twofactor/reset/`, {}],
  ['POST', (id) => `users/${id}/sessions/end/`, {}],
  ['POST', (id) => `users/${id}/remove/`, {}],
  ['POST', (id) => `users/${id}/invitation/resend/`, {}],
  ['POST', (id) => `users/${id}/invitation/cancel/`, {}],
];

describe.each(DATABASE_KINDS)('an account’s users, managed by the account, on %s', (kind) => {
  let t: TestApp;
  let team: BuiltAccount;
  let other: BuiltAccount;
  let owner: string;
  let site: number;
  let shop: number;
  const admin = () => new AdminService(t.database.db, new LocalEventBus(), () => Math.floor(t.clock.now() / 1000));
  const seconds = () => Math.floor(t.clock.now() / 1000);

  beforeAll(async () => {
    t = await buildTestApp(kind, { config: { 'limits.loginPerAccount': 100, 'limits.loginPerIp': 1000 } });
    team = await buildAccount(t.database.db, {
      domainName: 'team.test',
      resources: {
        'team.test': { hasDomain: true, hasService: true, hasMail: true },
        'shop.test': { hasDomain: true, hasService: true, hasMail: true },
      },
    });
    other = await buildAccount(t.database.db, { domainName: 'other-team.test' });
    site = team.resources['team.test'] as number;
    shop = team.resources['shop.test'] as number;
    owner = await t.login(team.domainName, team.username, team.password);
  });
  afterAll(() => t.close());

  async function as<T = unknown>(cookie: string, method: 'GET' | 'POST', path: string, params = {}) {
    return t.call<T>(method, path, params, { cookie });
  }

  async function listOf(cookie: string, params: Record<string, string> = {}) {
    return (await as<AccountUsersListData>(cookie, 'GET', 'users/list/', params)).body.data;
  }

  /** The invitation link of the newest mail to `to`, from the outbox. */
  async function invitationLink(to: string): Promise<string> {
    const mail = await t.database.db
      .selectFrom('outbox')
      .select(['body', 'kind'])
      .where('to_address', '=', to)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(mail.kind).toBe('user_invitation');
    const link = /https?:\/\/\S+\/invitation\/#([A-Za-z0-9_-]{43})/.exec(mail.body);
    if (!link?.[1]) throw new Error(`no link in ${mail.body}`);
    return link[1];
  }

  async function invite(username: string, email = `${username}@mail.test`) {
    const made = await as<{ id: number }>(owner, 'POST', 'users/create/', { username, email });
    expect(made.body.system.valid, made.body.system.errors.join()).toBe(true);
    return { id: made.body.data.id, token: await invitationLink(email) };
  }

  async function accept(token: string, password = 'a brand new passphrase') {
    return (await t.call('POST', 'invitation/accept/', { token, password })).body;
  }

  it('shows the right in the permission list: the account’s first user holds it, another does not', async () => {
    const reader = await buildUser(t.database.db, team, 'reader', { 'team.test': allKeys('read') });
    const readerCookie = await t.login(team.domainName, reader.username, reader.password);
    const list = async (cookie: string) =>
      (await as<PermissionListData>(cookie, 'GET', 'permission/list/')).body.data.manageUsers;
    expect(await list(owner)).toBe(true);
    expect(await list(readerCookie)).toBe(false);
  });

  it('answers not-found to every users call of a user without the right, and of a manager’s API token', async () => {
    const reader = await t.login(team.domainName, 'reader', 'another fine password');
    const made = await as<ApiTokenCreatedData>(owner, 'POST', 'user/apitokens/create/', {
      name: 'script',
      expiresInDays: '30',
      password: team.password,
      scope: [`${site}:write`],
    });
    const token = made.body.data.token;
    const calls: ['GET' | 'POST', string, Record<string, string>][] = [
      ['GET', 'users/list/', {}],
      ['POST', 'users/create/', { username: 'sneaky', email: 'sneaky@mail.test' }],
      ...USER_CALLS.map(
        ([method, path, params]) =>
          [method, path(team.userId), params] as ['GET' | 'POST', string, Record<string, string>],
      ),
    ];
    for (const [method, path, params] of calls) {
      const refused = await as(reader, method, path, params);
      expect(refused.response.statusCode, path).toBe(404);
      const byToken = await t.app.inject({
        method,
        url: `${t.config.basePath}${path}`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
        payload: method === 'POST' ? new URLSearchParams(params).toString() : undefined,
      });
      expect(byToken.statusCode, `token ${path}`).toBe(404);
    }
    const sneaky = await t.database.db.selectFrom('users').select('id').where('username', '=', 'sneaky').execute();
    expect(sneaky).toEqual([]);
  });

  it('answers another account’s user ids exactly like unknown ones', async () => {
    for (const [method, path, params] of USER_CALLS) {
      const foreign = await as(owner, method, path(other.userId), params);
      const unknown = await as(owner, method, path(987_654), params);
      expect(foreign.response.statusCode, path(0)).toBe(404);
      expect(foreign.body.system.errors).toEqual(unknown.body.system.errors);
      expect(foreign.response.statusCode).toBe(unknown.response.statusCode);
    }
    const stranger = await t.database.db
      .selectFrom('users')
      .select(['disabled_at', 'manage_users'])
      .where('id', '=', other.userId)
      .executeTakeFirstOrThrow();
    expect(stranger).toEqual({ disabled_at: null, manage_users: 1 });
  });

  it('lists the account’s users with a filter and server paging', async () => {
    const all = await listOf(owner, { page: '1' });
    expect(all.total).toBe(2);
    expect(all.users.map((user) => [user.username, user.self, user.manageUsers])).toEqual([
      ['admin', true, true],
      ['reader', false, false],
    ]);
    const paged = await listOf(owner, { page: '2', pageSize: '1' });
    expect(paged.users.map((user) => user.username)).toEqual(['reader']);
    expect(paged.total).toBe(2);
    const filtered = await listOf(owner, { page: '1', filter: 'REA' });
    expect(filtered.users.map((user) => user.username)).toEqual(['reader']);
  });

  it('invites a user who sets a password once from the mailed link, then logs in', async () => {
    const { id, token } = await invite('webmaster');
    const row = (await listOf(owner, { filter: 'webmaster' })).users[0];
    expect(row).toMatchObject({ id, invitation: 'pending', lastLoginAt: null, twoFactor: false, disabled: false });
    // a user without a password cannot log in with an empty or any password
    const before = await t.call('POST', 'user/login/', {
      domainName: 'team.test',
      username: 'webmaster',
      password: 'x',
    });
    expect(before.body.system.valid).toBe(false);

    const check = await t.call('POST', 'invitation/check/', { token });
    expect(check.body.data).toMatchObject({ domainName: 'team.test', username: 'webmaster' });
    expect((await accept(token)).system.valid).toBe(true);
    await t.login('team.test', 'webmaster', 'a brand new passphrase');
    expect((await listOf(owner, { filter: 'webmaster' })).users[0]?.invitation).toBeNull();

    // used once: the same link again, or a wrong one, is refused and changes nothing
    const again = await accept(token, 'someone else’s passphrase');
    expect(again.system).toMatchObject({
      valid: false,
      errors: [es('users.invitation_invalid')],
    });
    const wrong = await t.call('POST', 'invitation/check/', { token: 'A'.repeat(43) });
    expect(wrong.response.statusCode).toBe(404);
    const malformed = await t.call('POST', 'invitation/accept/', { token: '../x', password: 'a brand new passphrase' });
    expect(malformed.body.system.valid).toBe(false);
    await t.login('team.test', 'webmaster', 'a brand new passphrase');
  });

  it('refuses an expired link, and a resent one replaces the earlier link; a cancelled one stops working', async () => {
    const first = await invite('late');
    t.clock.advance(t.config.users.invitationHours * 3600 + 1);
    owner = await t.login(team.domainName, team.username, team.password);
    const expired = await t.call('POST', 'invitation/check/', { token: first.token });
    expect(expired.response.statusCode).toBe(403);
    expect(expired.body.system.errors).toEqual([es('users.invitation_expired')]);
    expect((await listOf(owner, { filter: 'late' })).users[0]?.invitation).toBe('expired');

    expect((await as(owner, 'POST', `users/${first.id}/invitation/resend/`)).body.system.valid).toBe(true);
    const second = await invitationLink('late@mail.test');
    expect(second).not.toBe(first.token);
    expect((await accept(first.token)).system.valid).toBe(false);
    expect((await listOf(owner, { filter: 'late' })).users[0]?.invitation).toBe('pending');

    expect((await as(owner, 'POST', `users/${first.id}/invitation/cancel/`)).body.system.valid).toBe(true);
    expect((await accept(second)).system.valid).toBe(false);
    expect((await listOf(owner, { filter: 'late' })).users[0]?.invitation).toBe('cancelled');
    // a user who has a password has no invitation to resend
    const webmaster = (await listOf(owner, { filter: 'webmaster' })).users[0]?.id as number;
    const resend = await as(owner, 'POST', `users/${webmaster}/invitation/resend/`);
    expect(resend.response.statusCode).toBe(409);
  });

  it('refuses a taken or malformed user name with a field error', async () => {
    const taken = await as(owner, 'POST', 'users/create/', { username: 'reader', email: 'x@mail.test' });
    expect(taken.body.system).toMatchObject({ valid: false, inputs: ['username'] });
    const bad = await as(owner, 'POST', 'users/create/', { username: 'Bad Name', email: 'x@mail.test' });
    expect(bad.body.system).toMatchObject({ valid: false, inputs: ['username'] });
    const noMail = await as(owner, 'POST', 'users/create/', { username: 'nomail', email: 'not-an-address' });
    expect(noMail.body.system).toMatchObject({ valid: false, inputs: ['email'] });
  });

  it('sets a user’s levels on one resource: seen at once in their permission list', async () => {
    const webmaster = (await listOf(owner, { filter: 'webmaster' })).users[0]?.id as number;
    const cookie = await t.login('team.test', 'webmaster', 'a brand new passphrase');
    const visible = async () =>
      (await as<PermissionListData>(cookie, 'GET', 'permission/list/')).body.data.permissions.map((p) => p.reference);
    expect(await visible()).toEqual([]);
    const set = await as(owner, 'POST', `users/${webmaster}/permissions/set/`, {
      resource: String(site),
      levels: JSON.stringify(levels({ service: 'read', service_ftp: 'write' })),
    });
    expect(set.body.system.valid, set.body.system.errors.join()).toBe(true);
    expect(await visible()).toEqual(['team.test']);
    const page = (await as<AccountUserPermissionsData>(owner, 'GET', `users/${webmaster}/permissions/`)).body.data;
    expect(page.total).toBe(2);
    expect(page.resources.find((r) => r.id === site)?.levels).toMatchObject({ service: 'read', service_ftp: 'write' });
    expect(page.resources.find((r) => r.id === site)?.max).toEqual(allKeys('write'));
    const filtered = (
      await as<AccountUserPermissionsData>(owner, 'GET', `users/${webmaster}/permissions/`, { filter: 'shop' })
    ).body.data;
    expect(filtered.resources.map((r) => r.reference)).toEqual(['shop.test']);
  });

  it('never lets a manager give more than they hold, on the server', async () => {
    // a second manager who only reads team.test and does not see shop.test
    const helper = await buildUser(t.database.db, team, 'helper', { 'team.test': allKeys('read') });
    await admin().setManageUsers('team.test', 'helper', true);
    const helperCookie = await t.login('team.test', 'helper', helper.password);
    const webmaster = (await listOf(owner, { filter: 'webmaster' })).users[0]?.id as number;
    const setAs = (cookie: string, resource: number, wanted: Record<PermissionKey, PermissionLevel>) =>
      as(cookie, 'POST', `users/${webmaster}/permissions/set/`, {
        resource: String(resource),
        levels: JSON.stringify(wanted),
      });

    const page = (await as<AccountUserPermissionsData>(helperCookie, 'GET', `users/${webmaster}/permissions/`)).body
      .data;
    expect(page.resources.map((r) => r.reference)).toEqual(['team.test']);
    expect(page.resources[0]?.max).toEqual(allKeys('read'));

    // raising a key to write is refused; the user's levels stay as they were
    const raised = await setAs(helperCookie, site, levels({ service: 'write', service_ftp: 'write' }));
    expect(raised.response.statusCode).toBe(403);
    expect(raised.body.system.errors).toEqual([es('users.error.beyond_own_rights')]);
    // keeping a write the helper does not hold, and lowering or raising others up to read, is allowed
    const kept = await setAs(
      helperCookie,
      site,
      levels({ service: 'read', service_ftp: 'write', service_ddbb: 'read' }),
    );
    expect(kept.body.system.valid, kept.body.system.errors.join()).toBe(true);
    const lowered = await setAs(helperCookie, site, levels({ service: 'read', service_ftp: 'read' }));
    expect(lowered.body.system.valid).toBe(true);
    // and once lowered, write is beyond the helper again
    expect(
      (await setAs(helperCookie, site, levels({ service: 'read', service_ftp: 'write' }))).response.statusCode,
    ).toBe(403);
    // a resource the helper does not see is unknown to them
    expect((await setAs(helperCookie, shop, levels({ service: 'read' }))).response.statusCode).toBe(404);
    // nor may the helper give themselves more
    const self = await as(helperCookie, 'POST', `users/${helper.userId}/permissions/set/`, {
      resource: String(site),
      levels: JSON.stringify(allKeys('write')),
    });
    expect(self.response.statusCode).toBe(403);
    const stored = await t.database.db
      .selectFrom('permission_grants')
      .select(['service', 'service_ftp'])
      .where('user_id', '=', webmaster)
      .where('resource_id', '=', site)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ service: 'read', service_ftp: 'read' });
  });

  it('copies another user’s levels, held to what the editor holds', async () => {
    const webmaster = (await listOf(owner, { filter: 'webmaster' })).users[0]?.id as number;
    const helper = (await listOf(owner, { filter: 'helper' })).users[0]?.id as number;
    const reader = (await listOf(owner, { filter: 'reader' })).users[0]?.id as number;
    // the owner (write everywhere) makes the webmaster like the owner: everything at write
    const copied = await as<AccountUserPermissionsCopyData>(owner, 'POST', `users/${webmaster}/permissions/copy/`, {
      from: String(team.userId),
    });
    expect(copied.body.data).toEqual({ changed: 2, limited: 0 });
    // the helper (read on team.test) copies the owner onto the reader: write is held at read
    const helperCookie = await t.login('team.test', 'helper', 'another fine password');
    const limited = await as<AccountUserPermissionsCopyData>(
      helperCookie,
      'POST',
      `users/${reader}/permissions/copy/`,
      {
        from: String(team.userId),
      },
    );
    expect(limited.body.data.changed).toBe(0);
    expect(limited.body.data.limited).toBe(PERMISSION_KEYS.length);
    const readerGrant = await t.database.db
      .selectFrom('permission_grants')
      .select('service')
      .where('user_id', '=', reader)
      .where('resource_id', '=', site)
      .executeTakeFirstOrThrow();
    expect(readerGrant.service).toBe('read');
    void helper;
  });

  it('grants and takes the right to manage users, but never one’s own, and keeps one manager', async () => {
    const reader = (await listOf(owner, { filter: 'reader' })).users[0]?.id as number;
    const own = await as(owner, 'POST', `users/${team.userId}/manager/`, { manageUsers: 'false' });
    expect(own.response.statusCode).toBe(403);
    expect(own.body.system.errors).toEqual([es('users.error.own_right')]);
    expect((await as(owner, 'POST', `users/${reader}/manager/`, { manageUsers: 'true' })).body.system.valid).toBe(true);
    const readerCookie = await t.login('team.test', 'reader', 'another fine password');
    expect((await as<PermissionListData>(readerCookie, 'GET', 'permission/list/')).body.data.manageUsers).toBe(true);
    expect((await as(owner, 'POST', `users/${reader}/manager/`, { manageUsers: 'false' })).body.system.valid).toBe(
      true,
    );
    expect((await as(readerCookie, 'GET', 'users/list/')).response.statusCode).toBe(404);

    // from the provider's side (CLI, console) the last holder cannot lose it either
    const lone = await buildAccount(t.database.db, { domainName: 'lone.test' });
    await expect(admin().setManageUsers('lone.test', lone.username, false)).rejects.toMatchObject({
      messageKey: 'users.error.last_manager',
    });
    // the helper may be disabled by the owner, but once the owner alone is left, the owner stays
    const helper = (await listOf(owner, { filter: 'helper' })).users[0]?.id as number;
    expect((await as(owner, 'POST', `users/${helper}/manager/`, { manageUsers: 'false' })).body.system.valid).toBe(
      true,
    );
    await expect(admin().setManageUsers('team.test', 'admin', false)).rejects.toMatchObject({
      messageKey: 'users.error.last_manager',
    });
  });

  it('disables a user: their sessions and API tokens end at once, they cannot log in, and are told', async () => {
    await admin().setUserEmail('team.test', 'reader', 'reader@mail.test');
    const reader = (await listOf(owner, { filter: 'reader' })).users[0]?.id as number;
    const cookie = await t.login('team.test', 'reader', 'another fine password');
    const made = await as<ApiTokenCreatedData>(cookie, 'POST', 'user/apitokens/create/', {
      name: 'reader script',
      expiresInDays: '30',
      password: 'another fine password',
      scope: [`${site}:read`],
    });
    const token = made.body.data.token;
    const byToken = () =>
      t.app.inject({
        method: 'GET',
        url: `${t.config.basePath}permission/list/`,
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await byToken()).statusCode).toBe(200);

    expect((await as(owner, 'POST', `users/${team.userId}/disable/`)).response.statusCode).toBe(403);
    const disabled = await as(owner, 'POST', `users/${reader}/disable/`);
    expect(disabled.body.system.valid, disabled.body.system.errors.join()).toBe(true);
    expect((await as(cookie, 'GET', 'user/info/')).body.system.statusCode).toBe(101);
    expect((await byToken()).statusCode).toBe(401);
    const login = await t.call('POST', 'user/login/', {
      domainName: 'team.test',
      username: 'reader',
      password: 'another fine password',
    });
    expect(login.body.system.errors).toEqual([es('auth.user_disabled')]);
    const mail = await t.database.db
      .selectFrom('outbox')
      .select(['kind', 'body'])
      .where('to_address', '=', 'reader@mail.test')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(mail.kind).toBe('security_disabled');
    expect(mail.body).toContain('admin ha desactivado el usuario reader de team.test');
    expect((await listOf(owner, { filter: 'reader' })).users[0]?.disabled).toBe(true);

    expect((await as(owner, 'POST', `users/${reader}/enable/`)).body.system.valid).toBe(true);
    await t.login('team.test', 'reader', 'another fine password');
  });

  it('resets a user’s second factor and passkeys: they set one up again at their next login', async () => {
    await admin().setUserEmail('team.test', 'webmaster', 'webmaster@mail.test');
    const webmaster = (await listOf(owner, { filter: 'webmaster' })).users[0]?.id as number;
    const cookie = await t.login('team.test', 'webmaster', 'a brand new passphrase');
    const setup = await as<{ secret: string }>(cookie, 'POST', 'user/twofactor/setup/');
    await as(cookie, 'POST', 'user/twofactor/enable/', {
      code: generateSync({ secret: setup.body.data.secret, epoch: seconds() }),
    });
    expect((await listOf(owner, { filter: 'webmaster' })).users[0]?.twoFactor).toBe(true);

    expect((await as(owner, 'POST', `users/${webmaster}/twofactor/reset/`)).body.system.valid).toBe(true);
    expect((await as(cookie, 'GET', 'user/info/')).body.system.statusCode).toBe(101);
    expect((await listOf(owner, { filter: 'webmaster' })).users[0]?.twoFactor).toBe(false);
    const login = await t.call<{ secondFactor?: string; setupSecondFactor?: boolean }>('POST', 'user/login/', {
      domainName: 'team.test',
      username: 'webmaster',
      password: 'a brand new passphrase',
    });
    expect(login.body.data).toMatchObject({ setupSecondFactor: true });
    expect(login.body.data.secondFactor).toBeUndefined();
    const mail = await t.database.db
      .selectFrom('outbox')
      .select('kind')
      .where('to_address', '=', 'webmaster@mail.test')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(mail.kind).toBe('security_twofactor_reset');
  });

  it('ends a user’s sessions, and removes a user (never oneself)', async () => {
    const cookie = await t.login('team.test', 'helper', 'another fine password');
    const helper = (await listOf(owner, { filter: 'helper' })).users[0]?.id as number;
    expect((await as(owner, 'POST', `users/${helper}/sessions/end/`)).body.system.valid).toBe(true);
    expect((await as(cookie, 'GET', 'user/info/')).body.system.statusCode).toBe(101);

    expect((await as(owner, 'POST', `users/${team.userId}/remove/`)).response.statusCode).toBe(403);
    const again = await t.login('team.test', 'helper', 'another fine password');
    expect((await as(owner, 'POST', `users/${helper}/remove/`)).body.system.valid).toBe(true);
    expect((await as(again, 'GET', 'user/info/')).body.system.statusCode).toBe(101);
    expect((await listOf(owner, { filter: 'helper' })).total).toBe(0);
    expect((await as(owner, 'GET', `users/${helper}/`)).response.statusCode).toBe(404);
  });

  it('logs every change in the users area, for the users who manage users only', async () => {
    const entries = (await as<ActivityListData>(owner, 'GET', 'activity/list/', { area: 'users', pageSize: '100' }))
      .body.data.entries;
    const actions = new Set(entries.map((entry) => entry.action));
    for (const action of [
      'users.create',
      'users.invitation_resend',
      'users.invitation_cancel',
      'users.permissions_set',
      'users.permissions_copy',
      'users.manager',
      'users.disable',
      'users.enable',
      'users.twofactor_reset',
      'users.sessions_end',
      'users.remove',
    ])
      expect(actions, action).toContain(action);
    expect(entries.every((entry) => entry.area === 'users')).toBe(true);
    // who did it: the owner, and the helper while they managed users
    expect(new Set(entries.map((entry) => entry.user))).toEqual(new Set(['admin', 'helper']));
    const disable = entries.find((entry) => entry.action === 'users.disable');
    expect(disable).toMatchObject({
      target: 'reader',
      changes: [{ field: 'disabled', before: 'false', after: 'true' }],
    });

    // the reader (no right) sees none of them, but their own disabling as a security event
    const reader = await t.login('team.test', 'reader', 'another fine password');
    const theirs = (await as<ActivityListData>(reader, 'GET', 'activity/list/', { pageSize: '100' })).body.data.entries;
    expect(theirs.some((entry) => entry.area === 'users')).toBe(false);
    expect(theirs.map((entry) => entry.action)).toContain('auth.disabled_by_manager');
  });
});
