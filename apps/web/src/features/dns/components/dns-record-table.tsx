import { Badge, Group, Text, Tooltip } from '@mantine/core';
import type { DnsRecord } from '@panel247/contract/dns';
import { splitSrvValue } from '@panel247/contract/dns-rules';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { HostText } from '../../../components/host-text';
import { ListTable } from '../../../components/list-table';
import { rowActionsColumn } from '../../../components/row-actions';
import { useTranslation } from '../../../lib/use-translation';
import { displayPriority, fullName, ttlLabelKey } from '../lib/dns-format';

/** The badge of a value the provider keeps in step; its tooltip says so (reachable by keyboard). */
function DynamicBadge({ dynamicValue }: { dynamicValue: string }) {
  const { t } = useTranslation();
  const hint = t('dns.dynamic_hint', { value: dynamicValue });
  return (
    <Tooltip label={hint} withArrow multiline w={280} events={{ hover: true, focus: true, touch: true }}>
      <Badge
        variant="light"
        color="teal"
        size="sm"
        tabIndex={0}
        aria-label={`${t('dns.dynamic')}: ${hint}`}
        data-testid="dns-dynamic"
        style={{ textTransform: 'none', cursor: 'help' }}
      >
        {dynamicValue}
      </Badge>
    </Tooltip>
  );
}

/**
 * An SRV value's three numbers and names apart: "5 5060 sip…" does not say which number is the
 * weight and which the port, and the priority beside it is a fourth one.
 */
function SrvValue({ value }: { value: string }) {
  const { t } = useTranslation();
  const { weight, port, target } = splitSrvValue(value);
  const part = (label: string, text: string) => (
    <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
      <Text span size="sm" c="dimmed">
        {label}
      </Text>{' '}
      <Text span size="sm" ff="monospace">
        {text}
      </Text>
    </Text>
  );
  return (
    <Text size="sm" data-testid="dns-value" data-value={value}>
      {part(t('dns.srv_weight'), weight)} · {part(t('dns.srv_port'), port)} · {part(t('dns.srv_target'), target)}
    </Text>
  );
}

export function DnsRecordTable({
  records,
  canWrite,
  emptyText,
  busy,
  onEdit,
  onDelete,
}: {
  records: DnsRecord[];
  canWrite: boolean;
  emptyText: string;
  busy: boolean;
  onEdit: (record: DnsRecord) => void;
  onDelete: (record: DnsRecord) => void;
}) {
  const { t } = useTranslation();
  const columns: DataTableColumn<DnsRecord>[] = [
    {
      accessor: 'zona',
      title: t('dns.name'),
      // narrow screens scroll the table sideways instead of squeezing the columns
      cellsStyle: () => ({ minWidth: 150 }),
      render: (record) => <HostText fw={500} value={fullName(record)} />,
    },
    {
      accessor: 'type',
      title: t('dns.type'),
      noWrap: true,
      cellsStyle: () => ({ minWidth: 76 }),
      render: (record) => (
        <Badge variant="outline" size="sm" radius="sm">
          {record.type}
        </Badge>
      ),
    },
    { accessor: 'priority', title: t('dns.priority'), noWrap: true, render: (record) => displayPriority(record) },
    { accessor: 'ttl', title: t('dns.ttl'), noWrap: true, render: (record) => t(ttlLabelKey(record.ttl)) },
    {
      accessor: 'value',
      title: t('dns.value'),
      cellsStyle: () => ({ minWidth: 220 }),
      render: (record) => (
        <Group gap={6} wrap="wrap">
          {record.type === 'SRV' ? (
            <SrvValue value={record.value} />
          ) : (
            <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }} data-testid="dns-value">
              {record.value}
            </Text>
          )}
          {record.dynamicValue ? <DynamicBadge dynamicValue={record.dynamicValue} /> : null}
        </Group>
      ),
    },
  ];
  if (canWrite) {
    columns.push(
      rowActionsColumn(t('dns.actions'), (record) => {
        const name = fullName(record);
        return [
          {
            label: t('dns.edit_item', { name }),
            testId: 'dns-edit',
            icon: <IconPencil size={16} aria-hidden />,
            onClick: () => onEdit(record),
          },
          record.eliminable && {
            label: t('dns.delete_item', { name }),
            testId: 'dns-delete',
            color: 'red',
            icon: <IconTrash size={16} aria-hidden />,
            onClick: () => onDelete(record),
          },
        ];
      }),
    );
  }
  return (
    <ListTable
      testId="dns-list"
      busy={busy}
      records={records}
      columns={columns}
      emptyText={emptyText}
      verticalAlign="top"
      rowAttributes={(record) => ({ 'data-type': record.type, 'data-name': fullName(record) })}
    />
  );
}
