import { Badge, Group, Text } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { ListCard, ListPage } from '../../../components/list-page';
import { ListSkeleton } from '../../../components/list-skeleton';
import { ListTable } from '../../../components/list-table';
import { formatEpoch } from '../../../lib/dates';
import { useErrorToast } from '../../../lib/use-error-toast';
import { useTranslation } from '../../../lib/use-translation';
import { type ConsoleServer, useServers } from '../api/list-servers';
import { useConsoleTitle } from '../lib/use-console-title';

/** The provider's servers (name, roles, host, state), whether each is heard from, and its services. */
export function ServersView() {
  const { t, i18n } = useTranslation();
  useConsoleTitle(t('console.nav.servers'));
  const servers = useServers();
  useErrorToast(servers.error);

  const columns: DataTableColumn<ConsoleServer>[] = [
    {
      accessor: 'name',
      title: t('console.servers.name'),
      render: (server) => (
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {server.name}
        </Text>
      ),
    },
    {
      accessor: 'up',
      title: t('console.servers.up'),
      render: (server) => (
        <Badge variant="light" color={server.up ? 'green' : 'red'} data-testid="server-up">
          {t(server.up ? 'console.servers.up_yes' : 'console.servers.up_no')}
        </Badge>
      ),
    },
    {
      accessor: 'roles',
      title: t('console.servers.roles'),
      render: (server) => (
        <Group gap={4} wrap="wrap">
          {server.roles.map((role) => (
            <Badge key={role} size="sm" variant="outline" style={{ textTransform: 'none' }}>
              {role}
            </Badge>
          ))}
        </Group>
      ),
    },
    {
      accessor: 'host',
      title: t('console.servers.host'),
      render: (server) => (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {server.host}
        </Text>
      ),
    },
    {
      accessor: 'state',
      title: t('console.servers.state'),
      render: (server) => t(`console.servers.state_${server.state}`),
    },
    {
      accessor: 'lastSeenAt',
      title: t('console.servers.last_seen'),
      render: (server) =>
        server.lastSeenAt === null ? t('console.never') : formatEpoch(server.lastSeenAt, i18n.language, 'second'),
    },
    { accessor: 'services', title: t('console.servers.services') },
  ];

  return (
    <ListPage testId="console-servers-view" title={t('console.servers.title')}>
      <ListCard title={t('console.servers.list_title')}>
        {servers.isPending ? (
          <ListSkeleton rows={3} height={32} testId="console-servers-skeleton" />
        ) : (
          <ListTable
            testId="console-servers"
            busy={servers.isFetching}
            records={servers.data?.servers ?? []}
            columns={columns}
            emptyText={servers.isError ? t('console.servers.load_error') : t('console.servers.empty')}
            idAccessor="name"
            rowAttributes={(server) => ({ 'data-name': server.name, 'data-up': server.up ? '1' : '0' })}
          />
        )}
      </ListCard>
    </ListPage>
  );
}
