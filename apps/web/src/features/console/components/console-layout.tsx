import { AppShell, Box, Burger, Group, Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconLogout } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense } from 'react';
import { Link, Outlet, useNavigate } from 'react-router';
import { DelayedSpinner } from '../../../components/delayed-spinner';
import { LanguageSelect } from '../../../components/language-select';
import { UserMenuButton } from '../../../components/user-menu-button';
import { useTranslation } from '../../../lib/use-translation';
import { useConsoleLogout } from '../api/console-logout';
import { useStaffInfo } from '../api/get-staff-info';
import { consolePaths } from '../lib/console-paths';
import { forgetStaff } from '../lib/forget-staff';
import { ConsoleNav } from './console-nav';
import { ServersDownAlert } from './servers-down-alert';

function StaffMenu() {
  const { t } = useTranslation();
  const username = useStaffInfo().data?.username ?? '';
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const logout = useConsoleLogout();
  const signOut = async () => {
    try {
      await logout.mutateAsync();
    } catch {
      // the session may be gone already: signing out here is still right
    }
    forgetStaff(queryClient);
    navigate(consolePaths.login, { replace: true });
  };
  return (
    <Menu position="bottom-end" withArrow shadow="md" width={220}>
      <UserMenuButton name={username} label={t('console.staff_menu', { user: username })} testId="console-user-menu" />
      <Menu.Dropdown>
        <Menu.Label>{username}</Menu.Label>
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={16} aria-hidden />}
          onClick={() => void signOut()}
          data-testid="console-logout"
        >
          {t('console.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * The console's frame, the customers' shell in its shape (header, side menu behind a burger on a
 * phone) but brand-neutral: it is the provider's tool, named "Panel247 console".
 */
export function ConsoleLayout() {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure(false);
  // Below the sm breakpoint the collapsed menu is only moved off-screen: keep it out of the tab order too.
  const mobile = useMediaQuery('(max-width: 47.99em)');
  const hiddenMenu = Boolean(mobile) && !opened;
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={t(opened ? 'menu.close_menu' : 'menu.open_menu')}
              data-testid="console-burger"
            />
            <UnstyledButton component={Link} to={consolePaths.services} data-testid="console-home">
              <Text fw={700} fz={{ base: 'md', sm: 'lg' }}>
                {t('console.title')}
              </Text>
            </UnstyledButton>
          </Group>
          <StaffMenu />
        </Group>
      </AppShell.Header>

      <AppShell.Navbar
        aria-label={t('console.nav.label')}
        data-testid="console-side-menu"
        inert={hiddenMenu}
        data-collapsed={hiddenMenu}
        p="xs"
      >
        <Stack justify="space-between" h="100%">
          <ConsoleNav onNavigate={close} />
          <Group gap="sm" p="xs" wrap="wrap">
            <LanguageSelect compact />
          </Group>
        </Stack>
      </AppShell.Navbar>

      <AppShell.Main style={{ display: 'flex', flexDirection: 'column', minHeight: '100dvh' }}>
        <Box component="section" style={{ flex: 1 }}>
          <ServersDownAlert />
          <Suspense fallback={<DelayedSpinner />}>
            <Outlet />
          </Suspense>
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}
