import { Switch } from '@mantine/core';
import type { AccountUser } from '@panel247/contract/account-users';
import { notifyCall } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useSetUserManager } from '../api/set-user-manager';

/** "May manage users": the account's right to manage its users; never one's own (the server refuses it too). */
export function UserManagerSwitch({ user }: { user: AccountUser }) {
  const { t } = useTranslation();
  const manager = useSetUserManager();
  return (
    <Switch
      label={t('users.manager_switch')}
      description={user.self ? t('users.manager_self') : t('users.manager_hint')}
      checked={user.manageUsers}
      disabled={user.self || manager.isPending}
      onChange={(event) => {
        const manageUsers = event.currentTarget.checked;
        void notifyCall(
          () => manager.mutateAsync({ id: user.id, manageUsers }),
          () => {},
        );
      }}
      data-testid="user-manager-switch"
    />
  );
}
