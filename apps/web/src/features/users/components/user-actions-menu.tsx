import { ActionIcon, Menu } from '@mantine/core';
import type { AccountUser } from '@panel247/contract/account-users';
import {
  IconDots,
  IconKeyOff,
  IconLock,
  IconLockOpen,
  IconLogout,
  IconMailForward,
  IconMailOff,
  IconShieldCog,
  IconTrash,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../lib/resource-paths';
import { useTranslation } from '../../../lib/use-translation';
import { actionsFor, type UserAction } from '../lib/user-state';

type Icon = ComponentType<{ size?: number; 'aria-hidden'?: boolean }>;

const ICONS: Record<UserAction, Icon> = {
  invitationResend: IconMailForward,
  invitationCancel: IconMailOff,
  enable: IconLockOpen,
  disable: IconLock,
  resetTwoFactor: IconKeyOff,
  endSessions: IconLogout,
  remove: IconTrash,
};

/**
 * A user's actions in one menu (reached by Tab, opened by Enter or Space, walked with the arrow
 * keys): their permissions (unless this is already their page), then what `actionsFor` allows.
 */
export function UserActionsMenu({
  user,
  onAction,
  busy = false,
  withPermissions = true,
}: {
  user: AccountUser;
  onAction: (action: UserAction, user: AccountUser) => void;
  /** A call on this user is running: the button spins. */
  busy?: boolean;
  withPermissions?: boolean;
}) {
  const { t } = useTranslation();
  const actions = actionsFor(user);
  // one's own page offers nothing here: no button that opens an empty menu
  if (!withPermissions && actions.length === 0) return null;
  return (
    <Menu position="bottom-end" withArrow shadow="md">
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          aria-label={t('users.actions_of', { name: user.username })}
          loading={busy}
          data-testid="user-actions"
        >
          <IconDots size={18} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {withPermissions ? (
          <Menu.Item
            component={Link}
            to={paths.user(user.id)}
            leftSection={<IconShieldCog size={16} aria-hidden />}
            data-testid="user-edit"
          >
            {t('users.edit_permissions')}
          </Menu.Item>
        ) : null}
        {actions.map((action) => {
          const Icon = ICONS[action];
          return (
            <Menu.Item
              key={action}
              color={action === 'remove' ? 'red' : undefined}
              leftSection={<Icon size={16} aria-hidden />}
              onClick={() => onAction(action, user)}
              data-testid={`user-${action}`}
            >
              {t(`users.action.${action}`)}
            </Menu.Item>
          );
        })}
      </Menu.Dropdown>
    </Menu>
  );
}
