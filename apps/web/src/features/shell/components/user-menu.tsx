import { Menu } from '@mantine/core';
import { IconDashboard, IconLogout, IconSettings } from '@tabler/icons-react';
import { Link } from 'react-router';
import { UserMenuButton } from '../../../components/user-menu-button';
import { useApp } from '../../../lib/app-context';
import { paths } from '../../../lib/resource-paths';
import { useTranslation } from '../../../lib/use-translation';
import { useSignOut } from './use-sign-out';

export function UserMenu() {
  const { t } = useTranslation();
  const { user } = useApp();
  const signOut = useSignOut();
  const name = user?.user ?? '';
  return (
    <Menu position="bottom-end" withArrow shadow="md" width={220}>
      <UserMenuButton name={name} label={t('menu.user_menu', { user: name })} testId="user-menu" />
      <Menu.Dropdown>
        <Menu.Label>{user ? `${user.user} @ ${user.domainName}` : ''}</Menu.Label>
        <Menu.Item component={Link} to={paths.dashboard} leftSection={<IconDashboard size={16} aria-hidden />}>
          {t('menu.dashboard')}
        </Menu.Item>
        <Menu.Item component={Link} to={paths.preferences} leftSection={<IconSettings size={16} aria-hidden />}>
          {t('menu.preferences')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={16} aria-hidden />}
          onClick={() => void signOut()}
          data-testid="logout"
        >
          {t('menu.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
