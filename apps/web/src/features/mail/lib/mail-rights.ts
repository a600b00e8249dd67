import { isActionable, isVisible } from '@panel247/contract/constants';
import type { PermissionMap } from '@panel247/contract/permissions';

export interface MailRights {
  /** servicemail visible: the view, the list, connection data and WebMail. */
  visible: boolean;
  /** servicemail_accounts write: create, change password, delete accounts. */
  account: boolean;
  /** servicemail_alias write: create, edit, delete aliases. */
  alias: boolean;
}

export type CreateMode = 'account' | 'alias';

export function mailRights(permissions: Partial<PermissionMap>): MailRights {
  return {
    visible: isVisible(permissions.servicemail),
    account: isActionable(permissions.servicemail_accounts),
    alias: isActionable(permissions.servicemail_alias),
  };
}

/** The create menu needs the account or the alias right (spec section 6). */
export function canCreate(rights: MailRights): boolean {
  return rights.account || rights.alias;
}

/** The create dialog starts in alias mode when the user holds only the alias right. */
export function initialCreateMode(rights: MailRights): CreateMode {
  return rights.alias && !rights.account ? 'alias' : 'account';
}

/** Only a user with both rights may switch between account and alias. */
export function canSwitchMode(rights: MailRights): boolean {
  return rights.account && rights.alias;
}

/** Whether the user may act in a mode (a dialog opened without it says 'no permission'). */
export function canUseMode(rights: MailRights, mode: CreateMode): boolean {
  return mode === 'account' ? rights.account : rights.alias;
}
