// @vitest-environment node
import type { AccountUser, UserResourcePermissions } from '@panel247/contract/account-users';
import { PERMISSION_KEYS, PERMISSION_LEVELS, type PermissionLevel } from '@panel247/contract/constants';
import { describe, expect, it } from 'vitest';
import ca from '../../../locales/ca.json';
import en from '../../../locales/en.json';
import es from '../../../locales/es.json';
import { cappedLevel, type Levels, partOfKey, partsOf, setAll } from './permission-levels';
import { actionsFor, USER_ACTIONS, userState } from './user-state';

function every(level: PermissionLevel): Levels {
  return Object.fromEntries(PERMISSION_KEYS.map((key) => [key, level])) as Levels;
}

const user: AccountUser = {
  id: 2,
  username: 'maria',
  email: '',
  lastLoginAt: null,
  lastLoginIp: '',
  twoFactor: false,
  disabled: false,
  manageUsers: false,
  invitation: null,
  self: false,
};

describe('permission parts and levels', () => {
  it('groups the keys by part: servicemail keys are mail, not hosting', () => {
    expect(partOfKey('servicemail_alias')).toBe('mail');
    expect(partOfKey('service_ftp')).toBe('service');
    expect(partOfKey('domain_dnssec')).toBe('domain');
    const parts = partsOf({ hasDomain: true, hasService: true, hasMail: true });
    expect(parts.map((part) => part.part)).toEqual(['domain', 'service', 'mail']);
    expect(parts.flatMap((part) => part.keys).sort()).toEqual([...PERMISSION_KEYS].sort());
    expect(partsOf({ hasDomain: false, hasService: false, hasMail: true })[0]?.keys).toEqual([
      'servicemail',
      'servicemail_accounts',
      'servicemail_alias',
      'servicemail_spam',
    ]);
  });

  it('caps a wanted level at the higher of the editor’s and the user’s own', () => {
    const resource: UserResourcePermissions = {
      id: 1,
      reference: 'a.test',
      hasDomain: true,
      hasService: false,
      hasMail: false,
      levels: { ...every('disabled'), domain_dns: 'write', domain_dnssec: 'read' },
      max: { ...every('read'), domain_authcode: 'disabled' },
    };
    expect(cappedLevel(resource, 'domain', 'write')).toBe('read');
    expect(cappedLevel(resource, 'domain_dns', 'write')).toBe('write');
    expect(cappedLevel(resource, 'domain_authcode', 'write')).toBe('disabled');
    expect(cappedLevel(resource, 'domain_authcode', 'read')).toBe('disabled');
    expect(cappedLevel(resource, 'domain', 'disabled')).toBe('disabled');
    const all = setAll(resource, resource.levels, 'write');
    expect(all.domain).toBe('read');
    expect(all.domain_dns).toBe('write');
    expect(all.domain_authcode).toBe('disabled');
    // keys of parts the resource lacks stay as they were
    expect(all.service).toBe('disabled');
  });
});

describe('user state and actions', () => {
  it('names the state: disabled first, then the invitation, else active', () => {
    expect(userState(user)).toBe('active');
    expect(userState({ ...user, invitation: 'expired' })).toBe('expired');
    expect(userState({ ...user, invitation: 'pending', disabled: true })).toBe('disabled');
  });

  it('never offers to change one’s own access', () => {
    expect(actionsFor({ ...user, self: true, twoFactor: true })).toEqual([]);
    expect(actionsFor({ ...user, disabled: true })).toEqual(['enable', 'endSessions', 'remove']);
    expect(actionsFor({ ...user, invitation: 'cancelled' })).toEqual([
      'invitationResend',
      'disable',
      'endSessions',
      'remove',
    ]);
  });
});

describe('texts named at run time', () => {
  it('exist in es, en and ca', () => {
    const needed = [
      ...PERMISSION_KEYS.map((key) => `users.key.${key}`),
      ...PERMISSION_LEVELS.map((level) => `users.level.${level}`),
      ...['domain', 'service', 'mail'].map((part) => `users.part.${part}`),
      ...['active', 'pending', 'expired', 'cancelled', 'disabled'].map((state) => `users.state.${state}`),
      ...USER_ACTIONS.map((action) => `users.action.${action}`),
      ...['invitationCancel', 'disable', 'resetTwoFactor', 'endSessions', 'remove'].flatMap((action) => [
        `users.confirm.${action}`,
        `users.confirm.${action}_title`,
      ]),
      'activity.area.users',
      ...['asc', 'desc', 'asc_date', 'desc_date'].map((order) => `lists.sort_${order}`),
    ];
    for (const tree of [es, en, ca]) {
      const missing = needed.filter(
        (key) => typeof key.split('.').reduce<unknown>((node, part) => (node as never)?.[part], tree) !== 'string',
      );
      expect(missing).toEqual([]);
    }
  });
});
