import { Badge, Switch, Text } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { AppModal } from '../../../components/app-modal';
import { ListSkeleton } from '../../../components/list-skeleton';
import { ListTable } from '../../../components/list-table';
import { ApiError } from '../../../lib/api-client';
import { formatEpoch } from '../../../lib/dates';
import { notifyError, notifySuccess, translateError } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { type AccountUser, useAccountUsers, useSetUserManager } from '../api/list-account-users';

function UsersTable({ domain }: { domain: string }) {
  const { t, i18n } = useTranslation();
  const users = useAccountUsers(domain);
  const manager = useSetUserManager(domain);
  if (users.isPending) return <ListSkeleton rows={2} height={32} testId="account-users-skeleton" />;
  const gone = users.error instanceof ApiError && users.error.status === 404;
  const columns: DataTableColumn<AccountUser>[] = [
    {
      accessor: 'username',
      title: t('console.accounts.username'),
      render: (user) => (
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {user.username}
        </Text>
      ),
    },
    {
      accessor: 'email',
      title: t('console.accounts.email'),
      render: (user) => (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {user.email || '—'}
        </Text>
      ),
    },
    {
      accessor: 'lastLoginAt',
      title: t('console.accounts.last_login'),
      render: (user) => (user.lastLoginAt === null ? t('console.never') : formatEpoch(user.lastLoginAt, i18n.language)),
    },
    {
      accessor: 'secondFactor',
      title: t('console.accounts.second_factor'),
      render: (user) => (
        <Badge variant="light" color={user.secondFactor ? 'green' : 'gray'} data-testid="account-user-2fa">
          {t(user.secondFactor ? 'console.accounts.second_factor_yes' : 'console.accounts.second_factor_no')}
        </Badge>
      ),
    },
    {
      accessor: 'manageUsers',
      title: t('console.accounts.manages_users'),
      render: (user) => (
        <Switch
          checked={user.manageUsers}
          disabled={manager.isPending}
          aria-label={t('console.accounts.manages_users_of', { name: user.username })}
          data-testid="account-user-manager"
          onChange={(event) =>
            manager.mutate(
              { username: user.username, manageUsers: event.currentTarget.checked },
              { onSuccess: () => notifySuccess(), onError: notifyError },
            )
          }
        />
      ),
    },
  ];
  return (
    <ListTable
      testId="account-users"
      busy={users.isFetching}
      records={users.data ?? []}
      columns={columns}
      emptyText={
        gone
          ? t('console.accounts.not_found')
          : users.isError
            ? translateError(users.error)
            : t('console.accounts.users_empty')
      }
      idAccessor="username"
      rowAttributes={(user) => ({ 'data-username': user.username })}
    />
  );
}

/** An account's users: their e-mail, last sign-in and whether they have a second factor. */
export function AccountUsersModal({ domain, onClose }: { domain: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <AppModal
      opened={domain !== null}
      onClose={onClose}
      title={t('console.accounts.users_title', { domain: domain ?? '' })}
      size="xl"
      data-testid="account-users-modal"
    >
      {domain !== null ? <UsersTable domain={domain} /> : null}
    </AppModal>
  );
}
