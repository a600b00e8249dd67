import { Badge, Group, Switch, Text } from '@mantine/core';
import type { HostedDatabase } from '@panel247/contract/databases';
import { IconDatabaseExport, IconExternalLink, IconEye, IconKey, IconTrash } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { HostText } from '../../../components/host-text';
import { ListTable } from '../../../components/list-table';
import { rowActionsColumn } from '../../../components/row-actions';
import { formatBytes } from '../../../lib/format-bytes';
import { useTranslation } from '../../../lib/use-translation';

export interface DatabaseRowActions {
  onShowPassword: (database: HostedDatabase) => void;
  onPhpMyAdmin: (database: HostedDatabase) => void;
  onDump: (database: HostedDatabase) => void;
  onPassword: (database: HostedDatabase) => void;
  onToggleExternal: (database: HostedDatabase) => void;
  onDelete: (database: HostedDatabase) => void;
}

function ExternalAccess({
  database,
  canWrite,
  onToggle,
}: {
  database: HostedDatabase;
  canWrite: boolean;
  onToggle: () => void;
}) {
  const { t } = useTranslation();
  const state = database.externalAccess ? t('ddbb.external_on') : t('ddbb.external_off');
  if (!canWrite) {
    return (
      <Badge
        variant="light"
        color={database.externalAccess ? 'teal' : 'gray'}
        radius="sm"
        data-testid="ddbb-external-state"
        data-state={database.externalAccess ? 'on' : 'off'}
      >
        {state}
      </Badge>
    );
  }
  return (
    <Group gap="xs" wrap="nowrap">
      {/* the switch only asks: the state changes once the confirmation's call answers */}
      <Switch
        checked={database.externalAccess}
        onChange={onToggle}
        aria-label={t('ddbb.external_item', { name: database.bbdd })}
        data-testid="ddbb-external-toggle"
      />
      <Text size="sm" data-testid="ddbb-external-state" data-state={database.externalAccess ? 'on' : 'off'} aria-hidden>
        {state}
      </Text>
    </Group>
  );
}

/**
 * The databases: name, user, size, external access and the actions. "Show password" and
 * phpMyAdmin are shown to everyone who sees the databases (spec section 6), but answer 'no
 * permission' without the database right, which the rest needs too.
 */
export function DatabasesTable({
  databases,
  canWrite,
  emptyText,
  busy,
  pending,
  actions,
}: {
  databases: HostedDatabase[];
  canWrite: boolean;
  emptyText: string;
  busy: boolean;
  /** Row actions still running, by kind: their buttons spin. */
  pending: { login: number | null; dump: number | null };
  actions: DatabaseRowActions;
}) {
  const { t, i18n } = useTranslation();
  const columns: DataTableColumn<HostedDatabase>[] = [
    {
      accessor: 'bbdd',
      title: t('ddbb.name'),
      render: (database) => <HostText fw={500} ff="monospace" value={database.bbdd} />,
    },
    {
      accessor: 'user',
      title: t('ddbb.user'),
      render: (database) => <HostText ff="monospace" value={database.user} />,
    },
    {
      accessor: 'size',
      title: t('ddbb.size'),
      render: (database) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }} data-testid="ddbb-size">
          {formatBytes(database.size, i18n.language)}
        </Text>
      ),
    },
    {
      accessor: 'externalAccess',
      title: t('ddbb.external'),
      render: (database) => (
        <ExternalAccess database={database} canWrite={canWrite} onToggle={() => actions.onToggleExternal(database)} />
      ),
    },
    rowActionsColumn(t('ddbb.actions'), (database) => {
      const name = database.bbdd;
      return [
        {
          label: t('ddbb.show_password_item', { name }),
          testId: 'ddbb-show-password',
          icon: <IconEye size={16} aria-hidden />,
          onClick: () => actions.onShowPassword(database),
        },
        {
          label: t('ddbb.phpmyadmin_item', { name }),
          testId: 'ddbb-phpmyadmin',
          icon: <IconExternalLink size={16} aria-hidden />,
          loading: pending.login === database.id,
          onClick: () => actions.onPhpMyAdmin(database),
        },
        canWrite && {
          label: t('ddbb.dump_item', { name }),
          testId: 'ddbb-dump',
          icon: <IconDatabaseExport size={16} aria-hidden />,
          loading: pending.dump === database.id,
          onClick: () => actions.onDump(database),
        },
        canWrite && {
          label: t('ddbb.password_item', { name }),
          testId: 'ddbb-password',
          icon: <IconKey size={16} aria-hidden />,
          onClick: () => actions.onPassword(database),
        },
        canWrite &&
          database.eliminable && {
            label: t('ddbb.delete_item', { name }),
            testId: 'ddbb-delete',
            color: 'red',
            icon: <IconTrash size={16} aria-hidden />,
            onClick: () => actions.onDelete(database),
          },
      ];
    }),
  ];
  return (
    <ListTable
      testId="ddbb-list"
      busy={busy}
      records={databases}
      columns={columns}
      emptyText={emptyText}
      rowAttributes={(database) => ({ 'data-name': database.bbdd })}
    />
  );
}
