import { Alert, Button, Card, Group, Select, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { isActionable } from '@panel247/contract/constants';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { IconChartBar, IconRefresh } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { ListPage } from '../../../components/list-page';
import { ListSkeleton } from '../../../components/list-skeleton';
import { NotFoundView } from '../../../components/not-found-view';
import { ApiError } from '../../../lib/api-client';
import { formatEpoch } from '../../../lib/dates';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useErrorToast } from '../../../lib/use-error-toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { useTranslation } from '../../../lib/use-translation';
import { useRefreshStats, useStatsSite, useStatsSites } from '../api/stats';
import { chosenSite, monthLabel } from '../lib/stats-format';
import { StatsTopList } from './stats-top-list';
import { StatsTotals } from './stats-totals';

// The charts' library is most of the page's code: the figures and lists show while it loads.
const StatsDaysChart = lazy(() => import('./stats-charts').then((m) => ({ default: m.StatsDaysChart })));
const StatsMonthsChart = lazy(() => import('./stats-charts').then((m) => ({ default: m.StatsMonthsChart })));
const chartSpace = <Skeleton height={280} radius="md" />;

/**
 * A hosting service's site statistics (beyond the spec): a site and one of its months, its
 * figures, its days and months as charts, and its top pages, referring sites, status codes and
 * countries. Everyone who sees the statistics reads them; "Refresh now" needs the right to change
 * them.
 */
export function StatsView({ set }: { set: PermissionSetData }) {
  const { t, i18n } = useTranslation();
  const serviceId = set.id;
  const canWrite = isActionable(set.permissions.service_stats);
  usePageTitle(`${t('menu.stats')} · ${set.reference}`);
  const sites = useStatsSites(serviceId);
  const missing = sites.error instanceof ApiError && sites.error.status === 404;
  useErrorToast(sites.error, !missing);
  const [chosen, setChosen] = useState<string | null>(null);
  const [month, setMonth] = useState('');
  const host = chosenSite(sites.data?.sites ?? [], chosen);
  const site = useStatsSite(serviceId, host, month);
  useErrorToast(site.error);
  const refresh = useRefreshStats(serviceId);
  if (missing) return <NotFoundView />;

  const months = sites.data?.sites.find((one) => one.host === host)?.months ?? [];
  const data = site.data;
  const summary = data?.summary ?? null;
  const updatedAt = sites.data?.updatedAt ?? 0;
  const everyHours = Math.max(1, Math.round((sites.data?.refreshSeconds ?? 3600) / 3600));
  return (
    <ListPage testId="stats-view" title={set.reference}>
      <Card withBorder padding="md">
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="md">
          <Group align="flex-end" wrap="wrap" gap="md">
            <Select
              label={t('stats.site')}
              data={(sites.data?.sites ?? []).map((one) => one.host)}
              value={host}
              onChange={(value) => {
                setChosen(value);
                setMonth('');
              }}
              allowDeselect={false}
              disabled={!sites.data || sites.data.sites.length === 0}
              w={{ base: '100%', xs: 260 }}
              data-testid="stats-site"
            />
            <Select
              label={t('stats.month')}
              data={months.map((value) => ({ value, label: monthLabel(value, i18n.language) }))}
              value={data?.month || null}
              onChange={(value) => setMonth(value ?? '')}
              allowDeselect={false}
              disabled={months.length === 0}
              w={{ base: '100%', xs: 220 }}
              data-testid="stats-month"
            />
          </Group>
          {canWrite ? (
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} aria-hidden />}
              loading={refresh.isPending}
              onClick={() => refresh.mutate(undefined, { onSuccess: notifySuccess, onError: notifyError })}
              data-testid="stats-refresh"
            >
              {t('stats.refresh')}
            </Button>
          ) : null}
        </Group>
        <Text size="sm" c="dimmed" mt="sm" data-testid="stats-updated">
          {updatedAt > 0
            ? t('stats.updated', { when: formatEpoch(updatedAt, i18n.language), count: everyHours })
            : t('stats.never_updated', { count: everyHours })}
        </Text>
      </Card>

      {sites.isPending || (host !== null && site.isPending) ? (
        <ListSkeleton testId="stats-skeleton" />
      ) : sites.data?.sites.length === 0 ? (
        <Alert color="gray" icon={<IconChartBar size={18} aria-hidden />} data-testid="stats-no-sites">
          {t('stats.no_sites')}
        </Alert>
      ) : !summary || !data ? (
        <Alert color="gray" icon={<IconChartBar size={18} aria-hidden />} data-testid="stats-empty">
          {t('stats.empty', { count: everyHours })}
        </Alert>
      ) : (
        <Stack gap="md">
          <StatsTotals totals={summary.totals} />
          <Suspense fallback={chartSpace}>
            <StatsDaysChart summary={summary} month={data.month} />
          </Suspense>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <StatsTopList
              title={t('stats.top_pages')}
              column={t('stats.page')}
              rows={summary.pages.map((page) => ({ label: page.path, hits: page.hits }))}
              empty={t('stats.none')}
              testId="stats-pages"
            />
            <StatsTopList
              title={t('stats.referrers')}
              column={t('stats.referrer')}
              rows={summary.referrers.map((referrer) => ({ label: referrer.site, hits: referrer.hits }))}
              empty={t('stats.no_referrers')}
              testId="stats-referrers"
            />
            <StatsTopList
              title={t('stats.statuses')}
              column={t('stats.status')}
              rows={summary.statuses.map((status) => ({ label: status.code, hits: status.hits }))}
              empty={t('stats.none')}
              testId="stats-statuses"
            />
            <StatsTopList
              title={t('stats.countries')}
              column={t('stats.country')}
              rows={(summary.countries ?? []).map((country) => ({ label: country.country, hits: country.hits }))}
              empty={summary.countries === null ? t('stats.no_geoip') : t('stats.none')}
              testId="stats-countries"
            />
          </SimpleGrid>
          <Suspense fallback={chartSpace}>
            <StatsMonthsChart data={data} />
          </Suspense>
        </Stack>
      )}
    </ListPage>
  );
}
