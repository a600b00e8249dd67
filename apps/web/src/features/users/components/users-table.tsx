import { Anchor, Group, Stack, Text } from '@mantine/core';
import type { AccountUser } from '@panel247/contract/account-users';
import type { DataTableColumn } from 'mantine-datatable';
import { Link } from 'react-router';
import { ListTable } from '../../../components/list-table';
import { formatEpoch } from '../../../lib/dates';
import { paths } from '../../../lib/resource-paths';
import { useTranslation } from '../../../lib/use-translation';
import type { UserAction } from '../lib/user-state';
import { UserActionsMenu } from './user-actions-menu';
import { ManagerBadge, SelfBadge, StateBadge, TwoFactorBadge } from './user-badges';

/** "date · from IP", or "never" for a user who has not logged in yet. */
export function LastLogin({ user }: { user: Pick<AccountUser, 'lastLoginAt' | 'lastLoginIp'> }) {
  const { t, i18n } = useTranslation();
  if (user.lastLoginAt === null) {
    return (
      <Text size="sm" c="dimmed" data-testid="user-last-login">
        {t('users.never')}
      </Text>
    );
  }
  return (
    <Stack gap={0} data-testid="user-last-login">
      <Text size="sm">{formatEpoch(user.lastLoginAt, i18n.language)}</Text>
      {user.lastLoginIp ? (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {t('users.from_ip', { ip: user.lastLoginIp })}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * The account's users: name (a link to their permissions, "you" on one's own row), e-mail, last
 * login, second factor, state, the right to manage users, and the actions menu. On a phone the
 * rows become cards (ListTable).
 */
export function UsersTable({
  users,
  emptyText,
  busy,
  busyId,
  onAction,
}: {
  users: AccountUser[];
  emptyText: string;
  busy: boolean;
  /** The user a call is running for. */
  busyId: number | null;
  onAction: (action: UserAction, user: AccountUser) => void;
}) {
  const { t } = useTranslation();
  const columns: DataTableColumn<AccountUser>[] = [
    {
      accessor: 'username',
      title: t('users.username'),
      render: (user) => (
        <Group gap={6} wrap="wrap">
          <Anchor component={Link} to={paths.user(user.id)} fw={500} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {user.username}
          </Anchor>
          {user.self ? <SelfBadge /> : null}
        </Group>
      ),
    },
    {
      accessor: 'email',
      title: t('users.email'),
      render: (user) =>
        user.email ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {user.email}
          </Text>
        ) : null,
    },
    { accessor: 'lastLoginAt', title: t('users.last_login'), render: (user) => <LastLogin user={user} /> },
    { accessor: 'twoFactor', title: t('users.two_factor'), render: (user) => <TwoFactorBadge on={user.twoFactor} /> },
    { accessor: 'state', title: t('users.state_title'), render: (user) => <StateBadge user={user} /> },
    {
      accessor: 'manageUsers',
      title: t('users.manager_title'),
      render: (user) => (user.manageUsers ? <ManagerBadge /> : null),
    },
    {
      accessor: 'actions',
      title: t('lists.actions'),
      textAlign: 'right',
      render: (user) => <UserActionsMenu user={user} onAction={onAction} busy={busyId === user.id} />,
    },
  ];
  return (
    <ListTable
      testId="users-list"
      busy={busy}
      records={users}
      columns={columns}
      emptyText={emptyText}
      rowAttributes={(user) => ({ 'data-name': user.username, 'data-self': String(user.self) })}
    />
  );
}
