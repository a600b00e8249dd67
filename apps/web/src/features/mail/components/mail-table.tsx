import { Badge, Group, Stack, Text } from '@mantine/core';
import type { Mailbox } from '@panel247/contract/mail';
import { IconExternalLink, IconGauge, IconKey, IconMailForward, IconPencil, IconTrash } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { HostText } from '../../../components/host-text';
import { ListTable } from '../../../components/list-table';
import { rowActionsColumn } from '../../../components/row-actions';
import { UsageBar } from '../../../components/usage-bar';
import { formatBytes } from '../../../lib/format-bytes';
import { formatPercent, usagePercent } from '../../../lib/usage-percent';
import { useTranslation } from '../../../lib/use-translation';
import type { MailRights } from '../lib/mail-rights';
import { aliasTargets, type MailRow } from '../lib/mail-rows';

export interface MailRowActions {
  onWebmail: (row: Extract<MailRow, { type: 'account' }>) => void;
  onPassword: (row: Extract<MailRow, { type: 'account' }>) => void;
  onRules: (row: Extract<MailRow, { type: 'account' }>) => void;
  onQuota: (row: Extract<MailRow, { type: 'account' }>) => void;
  onEdit: (row: Extract<MailRow, { type: 'alias' }>) => void;
  onDelete: (row: MailRow) => void;
}

function Usage({ mailbox }: { mailbox: Mailbox }) {
  const { t, i18n } = useTranslation();
  const used = formatBytes(mailbox.usage, i18n.language);
  const percent = usagePercent(mailbox.usage, mailbox.quota);
  if (percent === null) {
    return (
      <Text size="sm" data-testid="mail-usage">
        {t('mail.usage_unlimited', { used })}
      </Text>
    );
  }
  const text = t('mail.usage', {
    used,
    quota: formatBytes(mailbox.quota, i18n.language),
    percent: formatPercent(percent, i18n.language),
  });
  return <UsageBar text={text} percent={percent} testId="mail-usage" />;
}

/** Whether the account answers by itself or forwards its mail, under its usage. */
function RulesBadges({ mailbox }: { mailbox: Mailbox }) {
  const { t } = useTranslation();
  if (!mailbox.autoreply && mailbox.forward.length === 0) return null;
  return (
    <Group gap={4} data-testid="mail-rules-badges">
      {mailbox.autoreply ? (
        <Badge variant="light" color="grape" size="sm" radius="sm" data-testid="mail-autoreply-badge">
          {t('mail.badge_autoreply')}
        </Badge>
      ) : null}
      {mailbox.forward.length > 0 ? (
        <Badge
          variant="light"
          color="teal"
          size="sm"
          radius="sm"
          title={mailbox.forward.join(', ')}
          data-testid="mail-forward-badge"
        >
          {t('mail.badge_forward', { count: mailbox.forward.length })}
        </Badge>
      ) : null}
    </Group>
  );
}

/** Accounts and aliases in one table; the actions each row offers depend on the rights (spec section 6). */
export function MailTable({
  rows,
  rights,
  emptyText,
  busy,
  actions,
}: {
  rows: MailRow[];
  rights: MailRights;
  emptyText: string;
  busy: boolean;
  actions: MailRowActions;
}) {
  const { t } = useTranslation();
  const columns: DataTableColumn<MailRow>[] = [
    {
      accessor: 'name',
      title: t('mail.name'),
      render: (row) => <HostText fw={500} value={row.name} />,
    },
    {
      accessor: 'type',
      title: t('mail.type'),
      render: (row) => (
        <Badge variant={row.type === 'account' ? 'light' : 'outline'} size="sm" radius="sm">
          {t(row.type === 'account' ? 'mail.badge_account' : 'mail.badge_alias')}
        </Badge>
      ),
    },
    {
      accessor: 'details',
      title: t('mail.details'),
      render: (row) =>
        row.type === 'account' ? (
          <Stack gap={4}>
            <Usage mailbox={row.mailbox} />
            <RulesBadges mailbox={row.mailbox} />
          </Stack>
        ) : (
          <Stack gap={0} data-testid="mail-targets">
            {aliasTargets(row.alias).map((target) => (
              <HostText key={target} ff="monospace" value={target} />
            ))}
          </Stack>
        ),
    },
    rowActionsColumn(t('mail.actions'), (row) => {
      const name = row.name;
      const account = row.type === 'account' ? row : null;
      const alias = row.type === 'alias' ? row : null;
      const eliminable = row.type === 'account' ? row.mailbox.eliminable : row.alias.eliminable;
      return [
        // WebMail is shown to everyone who sees the mail (spec section 6); the server signs on only
        // with the accounts right and answers 'no permission' otherwise.
        account && {
          label: t('mail.webmail_item', { name }),
          testId: 'mail-webmail',
          icon: <IconExternalLink size={16} aria-hidden />,
          onClick: () => actions.onWebmail(account),
        },
        account &&
          rights.account && {
            label: t('mail.password_item', { name }),
            testId: 'mail-password',
            icon: <IconKey size={16} aria-hidden />,
            onClick: () => actions.onPassword(account),
          },
        account &&
          rights.account && {
            label: t('mail.rules_item', { name }),
            testId: 'mail-rules',
            icon: <IconMailForward size={16} aria-hidden />,
            onClick: () => actions.onRules(account),
          },
        account &&
          rights.account && {
            label: t('mail.quota_item', { name }),
            testId: 'mail-quota-action',
            icon: <IconGauge size={16} aria-hidden />,
            onClick: () => actions.onQuota(account),
          },
        alias &&
          rights.alias && {
            label: t('mail.edit_item', { name }),
            testId: 'mail-edit',
            icon: <IconPencil size={16} aria-hidden />,
            onClick: () => actions.onEdit(alias),
          },
        eliminable &&
          (account ? rights.account : rights.alias) && {
            label: t('mail.delete_item', { name }),
            testId: 'mail-delete',
            color: 'red',
            icon: <IconTrash size={16} aria-hidden />,
            onClick: () => actions.onDelete(row),
          },
      ];
    }),
  ];
  return (
    <ListTable
      testId="mail-list"
      busy={busy}
      records={rows}
      columns={columns}
      emptyText={emptyText}
      idAccessor="key"
      verticalAlign="top"
      rowAttributes={(row) => ({ 'data-type': row.type, 'data-name': row.name })}
    />
  );
}
