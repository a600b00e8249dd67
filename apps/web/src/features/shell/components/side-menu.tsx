import { Box, NavLink, Skeleton, Stack, Text } from '@mantine/core';
import { isVisible } from '@panel247/contract/constants';
import type { PermissionSetData } from '@panel247/contract/permissions';
import {
  IconAt,
  IconCar,
  IconChartBar,
  IconClock,
  IconDashboard,
  IconDatabase,
  IconFiles,
  IconFileText,
  IconFolders,
  IconHistory,
  IconListDetails,
  IconMail,
  IconMailForward,
  IconNetwork,
  IconServer,
  IconSettings,
  IconShieldCheck,
  IconSitemap,
  IconUsers,
  IconWorld,
  IconWorldWww,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { Link, useLocation } from 'react-router';
import { usePermissionList } from '../../../api/get-permission-list';
import { paths } from '../../../lib/resource-paths';
import { useTranslation } from '../../../lib/use-translation';

interface Entry {
  label: string;
  to: string;
  icon: ComponentType<{ size?: number; 'aria-hidden'?: boolean }>;
  exact?: boolean;
  testId?: string;
}

function MenuGroup({ title, entries, onNavigate }: { title: string; entries: Entry[]; onNavigate: () => void }) {
  const { pathname } = useLocation();
  if (entries.length === 0) return null;
  return (
    <nav aria-label={title}>
      <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pb={4} component="h2">
        {title}
      </Text>
      {entries.map(({ label, to, icon: Icon, exact, testId }) => {
        const active = exact ? pathname === to : pathname.startsWith(to);
        return (
          <NavLink
            key={to}
            component={Link}
            to={to}
            label={label}
            active={active}
            aria-current={active ? 'page' : undefined}
            leftSection={<Icon size={18} aria-hidden />}
            onClick={onNavigate}
            data-testid={testId}
          />
        );
      })}
    </nav>
  );
}

/** Per-item entries, each only when visible to the user (spec section 2, layout). */
export function itemEntries(set: PermissionSetData, t: (key: string) => string): Entry[] {
  const p = set.permissions;
  const id = set.id;
  const parking = set.service?.isRedirAndParking ?? false;
  const entries: Entry[] = [];
  if (set.hasDomain && isVisible(p.domain)) {
    entries.push({
      label: t('menu.domain'),
      to: paths.domain(id),
      icon: IconWorld,
      exact: true,
      testId: 'menu-item-domain',
    });
  }
  if (set.hasService && isVisible(p.service)) {
    entries.push({
      label: parking ? t('menu.parking') : t('menu.hosting'),
      to: paths.service(id),
      icon: parking ? IconCar : IconServer,
      exact: true,
      testId: parking ? 'menu-item-parking' : 'menu-item-hosting',
    });
    if (!parking && (isVisible(p.service_subdomains) || isVisible(p.service_redirects))) {
      entries.push({
        label: t('menu.sites'),
        to: paths.serviceSites(id),
        icon: IconWorldWww,
        testId: 'menu-item-sites',
      });
    }
    if (isVisible(p.service_ftp)) {
      entries.push({ label: t('menu.ftp'), to: paths.serviceFtp(id), icon: IconFolders, testId: 'menu-item-ftp' });
      // the file manager works on the same files as FTP, so it shows to the same users
      entries.push({ label: t('menu.files'), to: paths.serviceFiles(id), icon: IconFiles, testId: 'menu-item-files' });
    }
    if (isVisible(p.service_ddbb)) {
      entries.push({
        label: t('menu.databases'),
        to: paths.serviceDatabases(id),
        icon: IconDatabase,
        testId: 'menu-item-ddbb',
      });
    }
    if (isVisible(p.service_backups)) {
      entries.push({
        label: t('menu.backups'),
        to: paths.serviceBackups(id),
        icon: IconHistory,
        testId: 'menu-item-backups',
      });
    }
    if (isVisible(p.service_cron)) {
      entries.push({ label: t('menu.cron'), to: paths.serviceCron(id), icon: IconClock, testId: 'menu-item-cron' });
    }
    if (isVisible(p.service_stats)) {
      entries.push({
        label: t('menu.stats'),
        to: paths.serviceStats(id),
        icon: IconChartBar,
        testId: 'menu-item-stats',
      });
    }
  }
  if (set.hasMail && isVisible(p.servicemail)) {
    entries.push({ label: t('menu.mail'), to: paths.mail(id), icon: IconMail, exact: true, testId: 'menu-item-mail' });
  }
  if (set.hasMail && isVisible(p.servicemail_spam)) {
    entries.push({
      label: t('menu.mail_spam'),
      to: paths.mailSpam(id),
      icon: IconShieldCheck,
      testId: 'menu-item-mail-spam',
    });
  }
  if (set.hasService && isVisible(p.service_dnszone)) {
    entries.push({ label: t('menu.dns_zone'), to: paths.serviceDns(id), icon: IconNetwork, testId: 'menu-item-dns' });
  }
  // Whoever sees the item sees its activity, filtered by the server to the areas they may see.
  if (entries.length > 0) {
    entries.push({
      label: t('menu.activity'),
      to: paths.itemActivity(id),
      icon: IconListDetails,
      testId: 'menu-item-activity',
    });
  }
  return entries;
}

/** The item's group while its resource loads: a heading and three entries' worth of placeholder. */
function MenuGroupSkeleton() {
  const { t } = useTranslation();
  return (
    <Stack gap={6} px="sm" role="status" aria-label={t('main.loading')} data-testid="side-item-skeleton">
      <Skeleton height={10} width={110} radius="sm" my={4} />
      <Skeleton height={30} radius="sm" />
      <Skeleton height={30} radius="sm" />
      <Skeleton height={30} radius="sm" />
    </Stack>
  );
}

export function SideMenu({
  item,
  itemLoading = false,
  onNavigate,
}: {
  item: PermissionSetData | null;
  /** An item page whose resource is still loading: its group keeps its place as a placeholder. */
  itemLoading?: boolean;
  onNavigate: () => void;
}) {
  const { t } = useTranslation();
  const list = usePermissionList();
  const permissions = list.data?.permissions ?? [];

  const management: Entry[] = [
    { label: t('menu.dashboard'), to: paths.dashboard, icon: IconDashboard, exact: true },
    { label: t('menu.preferences'), to: paths.preferences, icon: IconSettings },
    { label: t('menu.activity'), to: paths.activity, icon: IconListDetails, testId: 'menu-activity' },
    // Only for the holders of the account's right to manage users; it follows the realtime socket.
    ...(list.data?.manageUsers
      ? [{ label: t('menu.users'), to: paths.users, icon: IconUsers, testId: 'menu-users' }]
      : []),
    { label: t('menu.legal'), to: paths.legal, icon: IconFileText },
    { label: t('menu.contact'), to: paths.contact, icon: IconMailForward },
  ];
  // List entries only when some permission carries the matching flag.
  const lists: Entry[] = [];
  if (permissions.some((p) => p.hasDomain)) {
    lists.push({ label: t('menu.domains'), to: paths.domainList, icon: IconWorld, testId: 'menu-list-domain' });
  }
  if (permissions.some((p) => p.hasService)) {
    lists.push({ label: t('menu.services'), to: paths.serviceList, icon: IconSitemap, testId: 'menu-list-service' });
  }
  if (permissions.some((p) => p.hasMail)) {
    lists.push({ label: t('menu.mails'), to: paths.mailList, icon: IconAt, testId: 'menu-list-mail' });
  }

  // the browser's own scrolling: Mantine's ScrollArea measured itself in the first render's task
  // (ResizeObserver callbacks, about 35 ms in a CPU profile of a view's first visit)
  return (
    <Box style={{ flex: 1, overflowY: 'auto' }}>
      <Stack gap="md" p="xs">
        {item ? (
          <MenuGroup title={item.reference} entries={itemEntries(item, t)} onNavigate={onNavigate} />
        ) : itemLoading ? (
          <MenuGroupSkeleton />
        ) : null}
        <MenuGroup title={t('menu.lists')} entries={lists} onNavigate={onNavigate} />
        <MenuGroup title={t('menu.management')} entries={management} onNavigate={onNavigate} />
      </Stack>
    </Box>
  );
}
