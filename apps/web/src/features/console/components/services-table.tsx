import { ActionIcon, Badge, Menu, Stack, Text } from '@mantine/core';
import type { ConsoleService } from '@panel247/contract/console';
import { IconDots, IconPlayerPause, IconPlayerPlay, IconSwitchHorizontal, IconTrash } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { ListTable } from '../../../components/list-table';
import { UsageBar } from '../../../components/usage-bar';
import { formatBytes } from '../../../lib/format-bytes';
import { formatPercent, usagePercent } from '../../../lib/usage-percent';
import { useTranslation } from '../../../lib/use-translation';

export interface ServiceActions {
  onSuspend: (service: ConsoleService) => void;
  onUnsuspend: (service: ConsoleService) => void;
  onPlan: (service: ConsoleService) => void;
  onTerminate: (service: ConsoleService) => void;
}

/** A row's actions in one menu: four of them do not fit a phone's card as icon buttons. */
function ServiceMenu({ service, actions, busy }: { service: ConsoleService; actions: ServiceActions; busy: boolean }) {
  const { t } = useTranslation();
  const suspended = service.state === 'suspended';
  return (
    <Menu position="bottom-end" withArrow shadow="md">
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          aria-label={t('console.services.actions_of', { domain: service.domain })}
          loading={busy}
          data-testid="service-actions"
        >
          <IconDots size={18} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {suspended ? (
          <Menu.Item
            leftSection={<IconPlayerPlay size={16} aria-hidden />}
            onClick={() => actions.onUnsuspend(service)}
            data-testid="service-unsuspend"
          >
            {t('console.services.unsuspend')}
          </Menu.Item>
        ) : (
          <Menu.Item
            leftSection={<IconPlayerPause size={16} aria-hidden />}
            onClick={() => actions.onSuspend(service)}
            data-testid="service-suspend"
          >
            {t('console.services.suspend')}
          </Menu.Item>
        )}
        <Menu.Item
          leftSection={<IconSwitchHorizontal size={16} aria-hidden />}
          onClick={() => actions.onPlan(service)}
          data-testid="service-plan"
        >
          {t('console.services.change_plan')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item
          color="red"
          leftSection={<IconTrash size={16} aria-hidden />}
          onClick={() => actions.onTerminate(service)}
          data-testid="service-terminate"
        >
          {t('console.services.terminate')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function DiskUse({ service }: { service: ConsoleService }) {
  const { t, i18n } = useTranslation();
  const used = formatBytes(service.diskBytes, i18n.language);
  const percent = service.diskLimitBytes === null ? null : usagePercent(service.diskBytes, service.diskLimitBytes);
  if (service.diskLimitBytes === null || percent === null) {
    return (
      <Text size="sm" data-testid="service-disk">
        {t('console.services.disk_unlimited', { used })}
      </Text>
    );
  }
  return (
    <UsageBar
      text={t('console.services.disk_of', {
        used,
        limit: formatBytes(service.diskLimitBytes, i18n.language),
        percent: formatPercent(percent, i18n.language),
      })}
      percent={percent}
      testId="service-disk"
    />
  );
}

/** Every hosting service: domain, account, brand, plan, state (with the suspension's reason), disk use, actions. */
export function ServicesTable({
  services,
  busy,
  emptyText,
  actions,
  pendingDomain,
}: {
  services: ConsoleService[];
  busy: boolean;
  emptyText: string;
  actions: ServiceActions;
  /** The row whose change (an unsuspension) is running. */
  pendingDomain: string | null;
}) {
  const { t } = useTranslation();
  const columns: DataTableColumn<ConsoleService>[] = [
    {
      accessor: 'domain',
      title: t('console.services.domain'),
      render: (service) => (
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {service.domain}
        </Text>
      ),
    },
    { accessor: 'account', title: t('console.services.account') },
    { accessor: 'brand', title: t('console.services.brand') },
    { accessor: 'plan', title: t('console.services.plan') },
    {
      accessor: 'state',
      title: t('console.services.state'),
      render: (service) => (
        <Stack gap={2} align="flex-start">
          <Badge color={service.state === 'active' ? 'green' : 'red'} variant="light" data-testid="service-state">
            {t(`console.services.state_${service.state}`)}
          </Badge>
          {service.state === 'suspended' && service.suspendedReason ? (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="service-reason">
              {service.suspendedReason}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      accessor: 'diskBytes',
      title: t('console.services.disk'),
      cellsStyle: () => ({ minWidth: 160 }),
      render: (service) => <DiskUse service={service} />,
    },
    {
      accessor: 'actions',
      title: t('lists.actions'),
      textAlign: 'right',
      render: (service) => <ServiceMenu service={service} actions={actions} busy={pendingDomain === service.domain} />,
    },
  ];
  return (
    <ListTable
      testId="console-services"
      busy={busy}
      records={services}
      columns={columns}
      emptyText={emptyText}
      verticalAlign="top"
      rowAttributes={(service) => ({ 'data-domain': service.domain, 'data-state': service.state })}
    />
  );
}
