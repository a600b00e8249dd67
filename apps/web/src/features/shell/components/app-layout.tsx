import { AppShell, Box, Burger, Group, Image, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { type ReactNode, Suspense, useDeferredValue } from 'react';
import { Link, Outlet, NavLink as RouterNavLink } from 'react-router';
import { usePermissionList } from '../../../api/get-permission-list';
import { usePermissionSet } from '../../../api/get-permission-set';
import { DelayedSpinner } from '../../../components/delayed-spinner';
import { useApp } from '../../../lib/app-context';
import { useCurrentItemId } from '../../../lib/current-item';
import { paths } from '../../../lib/resource-paths';
import { usePageTitle } from '../../../lib/use-page-title';
import { useTranslation } from '../../../lib/use-translation';
import classes from './app-layout.module.css';
import { Breadcrumb } from './breadcrumb';
import { SideMenu } from './side-menu';
import { StatusIndicators } from './status-indicators';
import { UserMenu } from './user-menu';

function TopMenu() {
  const { t } = useTranslation();
  const list = usePermissionList();
  const hasDomains = list.data?.permissions.some((p) => p.hasDomain) ?? false;
  return (
    <Group component="nav" aria-label={t('menu.top')} gap={4} visibleFrom="sm">
      <RouterNavLink to={paths.dashboard} end className={classes.topLink}>
        {t('menu.dashboard')}
      </RouterNavLink>
      {hasDomains ? (
        <RouterNavLink to={paths.domainList} className={classes.topLink} data-testid="top-domains">
          {t('menu.domains')}
        </RouterNavLink>
      ) : null}
    </Group>
  );
}

export default function AppLayout({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const { config, logoUrl, logoMiniUrl } = useApp();
  const [opened, { toggle, close }] = useDisclosure(false);
  // Below the sm breakpoint the collapsed menu is only moved off-screen: keep it out of the tab order too.
  const mobile = useMediaQuery('(max-width: 47.99em)');
  const hiddenMenu = Boolean(mobile) && !opened;
  const itemId = useCurrentItemId();
  const itemQuery = usePermissionSet(itemId);
  const item = itemId && itemQuery.data?.id === itemId ? itemQuery.data : null;
  // an item page before its resource arrives: the frame keeps its places (breadcrumb, side group)
  const itemLoading = itemId !== null && item === null && !itemQuery.isError;
  // while it loads, the tab says so instead of keeping the previous page's title
  usePageTitle(itemLoading ? t('main.loading') : null);
  // the expiry dots come in a second render after the first screen (React's deferred value: false
  // first, then true): building their date formatter cost the first render about 20 ms
  const indicatorsShown = useDeferredValue(true, false);

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened } }}
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
              data-testid="burger"
            />
            <UnstyledButton
              component={Link}
              to={paths.dashboard}
              aria-label={`${config.company} – ${t('menu.dashboard')}`}
            >
              <Group gap="xs" wrap="nowrap">
                <Image src={logoUrl} alt="" h={32} w="auto" fit="contain" visibleFrom="sm" />
                <Image src={logoMiniUrl} alt="" h={32} w={32} fit="contain" hiddenFrom="sm" />
                {/* a phone has room for two short lines, not one long one: the name is never cut */}
                <Text fw={700} fz={{ base: 'sm', sm: 'lg' }} lh={1.2} lineClamp={2} maw={{ base: 190, sm: 260 }}>
                  {config.company}
                </Text>
              </Group>
            </UnstyledButton>
            <TopMenu />
          </Group>
          <UserMenu />
        </Group>
      </AppShell.Header>

      <AppShell.Navbar
        aria-label={t('menu.side')}
        data-testid="side-menu"
        inert={hiddenMenu}
        data-collapsed={hiddenMenu}
      >
        <SideMenu item={item} itemLoading={itemLoading} onNavigate={close} />
      </AppShell.Navbar>

      <AppShell.Main className={classes.main}>
        <Stack gap="md" style={{ flex: 1 }}>
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Breadcrumb item={item} itemLoading={itemLoading} />
            {item && indicatorsShown ? <StatusIndicators set={item} /> : null}
          </Group>
          <Box component="section" style={{ flex: 1 }}>
            <Suspense fallback={<DelayedSpinner />}>{children ?? <Outlet />}</Suspense>
          </Box>
        </Stack>
        <Box component="footer" pt="xl" pb="xs">
          <Text ta="center" size="sm" c="dimmed">
            © {new Date().getFullYear()} {config.company}
          </Text>
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}
