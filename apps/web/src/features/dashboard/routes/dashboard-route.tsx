import { Card, Group, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBuilding, IconUser } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { usePermissionList } from '../../../api/get-permission-list';
import { useApp } from '../../../lib/app-context';
import { formatEpoch } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import { useTranslation } from '../../../lib/use-translation';

/** The parts a product may have, each counted as its list (domains, services, mail) shows them. */
const PARTS = [
  ['domain', 'hasDomain'],
  ['service', 'hasService'],
  ['mail', 'hasMail'],
] as const;

function Row({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} ta="right" data-testid={testId} style={{ wordBreak: 'break-all' }}>
        {value}
      </Text>
    </Group>
  );
}

export default function DashboardRoute() {
  const { t, i18n } = useTranslation();
  usePageTitle(t('dashboard.title'));
  const { config, user } = useApp();
  const list = usePermissionList();
  const entries = list.data?.permissions ?? [];
  const count = (n: number) => (list.isPending ? <Skeleton h={16} w={24} component="span" /> : n);
  const lastLogin = user?.tsLastLogin ? formatEpoch(user.tsLastLogin, i18n.language) : '—';

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('dashboard.title')}
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder padding="lg" data-testid="info-card">
          <Group gap="sm" mb="md">
            <ThemeIcon variant="light" size="lg" aria-hidden>
              <IconBuilding size={20} />
            </ThemeIcon>
            <Title order={2} size="h4">
              {t('dashboard.information')}
            </Title>
          </Group>
          <Stack gap="xs">
            <Row label={t('dashboard.company')} value={config.company} />
            {/* The spec's total counts the permission list: products, each a domain, a service, mail or
                several; the lists below count each part apart, as the domain, service and mail lists show them. */}
            <Row label={t('dashboard.total_products')} value={count(entries.length)} testId="total-domains" />
            {PARTS.map(([part, flag]) => (
              <Row
                key={part}
                label={t(`dashboard.count_${part}`)}
                value={count(entries.filter((entry) => entry[flag]).length)}
                testId={`dashboard-count-${part}`}
              />
            ))}
          </Stack>
        </Card>
        <Card withBorder padding="lg" data-testid="user-card">
          <Group gap="sm" mb="md">
            <ThemeIcon variant="light" size="lg" aria-hidden>
              <IconUser size={20} />
            </ThemeIcon>
            <Title order={2} size="h4">
              {t('dashboard.user')}
            </Title>
          </Group>
          <Stack gap="xs">
            <Row label={t('dashboard.username')} value={user?.user ?? ''} testId="dashboard-username" />
            <Row label={t('dashboard.ip')} value={user?.ip ?? ''} />
            <Row label={t('dashboard.last_login')} value={lastLogin} />
          </Stack>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
