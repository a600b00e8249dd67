// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { canCreate, canSwitchMode, canUseMode, initialCreateMode, mailRights } from './mail-rights';

describe('mail rights and the create dialog mode', () => {
  const both = mailRights({ servicemail: 'write', servicemail_accounts: 'write', servicemail_alias: 'write' });
  const aliasOnly = mailRights({ servicemail: 'read', servicemail_accounts: 'read', servicemail_alias: 'write' });
  const accountOnly = mailRights({ servicemail: 'read', servicemail_accounts: 'write', servicemail_alias: 'disabled' });
  const viewer = mailRights({ servicemail: 'read', servicemail_accounts: 'read', servicemail_alias: 'read' });

  it('reads the permission set', () => {
    expect(both).toEqual({ visible: true, account: true, alias: true });
    expect(viewer).toEqual({ visible: true, account: false, alias: false });
    expect(mailRights({})).toEqual({ visible: false, account: false, alias: false });
  });

  it('offers create with either right', () => {
    expect(canCreate(both)).toBe(true);
    expect(canCreate(aliasOnly)).toBe(true);
    expect(canCreate(accountOnly)).toBe(true);
    expect(canCreate(viewer)).toBe(false);
  });

  it('starts in alias mode for alias-only users, else in account mode', () => {
    expect(initialCreateMode(aliasOnly)).toBe('alias');
    expect(initialCreateMode(both)).toBe('account');
    expect(initialCreateMode(accountOnly)).toBe('account');
  });

  it('lets only users with both rights switch', () => {
    expect(canSwitchMode(both)).toBe(true);
    expect(canSwitchMode(aliasOnly)).toBe(false);
    expect(canSwitchMode(accountOnly)).toBe(false);
    expect(canUseMode(aliasOnly, 'account')).toBe(false);
    expect(canUseMode(aliasOnly, 'alias')).toBe(true);
  });
});
