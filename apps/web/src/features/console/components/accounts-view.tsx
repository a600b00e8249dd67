import { Text } from '@mantine/core';
import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import { IconUsers } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { ListBody } from '../../../components/list-body';
import { ListCard, ListPage } from '../../../components/list-page';
import { ListTable } from '../../../components/list-table';
import { rowActionsColumn } from '../../../components/row-actions';
import { SortSelect } from '../../../components/sort-select';
import { formatEpoch } from '../../../lib/dates';
import type { SortChoice } from '../../../lib/list-sort';
import { useDialog } from '../../../lib/use-dialog';
import { useErrorToast } from '../../../lib/use-error-toast';
import { useServerPage, useStepBack } from '../../../lib/use-server-page';
import { useTranslation } from '../../../lib/use-translation';
import { ACCOUNT_SORTS, type AccountSort, type ConsoleAccount, useAccounts } from '../api/list-accounts';
import { useConsoleTitle } from '../lib/use-console-title';
import { AccountUsersModal } from './account-users-modal';

const NO_ACCOUNT = null as ConsoleAccount | null;

/** Every account of every brand, paged on the server; an account's users in a dialog. */
export function AccountsView() {
  const { t, i18n } = useTranslation();
  useConsoleTitle(t('console.nav.accounts'));
  const [sort, setSort] = useState<SortChoice<AccountSort>>({ sort: 'domain', order: 'asc' });
  const { text, setText, filter, page, setPage } = useServerPage([sort.sort, sort.order]);
  const list = useAccounts({ page, filter, ...sort });
  useErrorToast(list.error);
  const accounts = list.data?.accounts ?? [];
  const total = list.data?.total ?? accounts.length;
  useStepBack(total, list.data !== undefined, page, setPage);
  const [usersOf, setUsersOf, closeUsers] = useDialog(NO_ACCOUNT);

  const columns: DataTableColumn<ConsoleAccount>[] = [
    {
      accessor: 'domain',
      title: t('console.accounts.domain'),
      render: (account) => (
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {account.domain}
        </Text>
      ),
    },
    { accessor: 'brand', title: t('console.accounts.brand') },
    { accessor: 'services', title: t('console.accounts.services') },
    { accessor: 'users', title: t('console.accounts.users') },
    {
      accessor: 'createdAt',
      title: t('console.accounts.created'),
      noWrap: true,
      render: (account) => formatEpoch(account.createdAt, i18n.language, 'day'),
    },
    rowActionsColumn<ConsoleAccount>(t('lists.actions'), (account) => [
      {
        testId: 'account-users',
        label: t('console.accounts.users_of', { domain: account.domain }),
        icon: <IconUsers size={18} aria-hidden />,
        onClick: () => setUsersOf(account),
      },
    ]),
  ];

  const emptyText = list.isError
    ? t('console.accounts.load_error')
    : filter
      ? t('lists.no_results')
      : t('console.accounts.empty');

  return (
    <ListPage testId="console-accounts-view" title={t('console.accounts.title')}>
      <ListCard title={t('console.accounts.list_title')}>
        <ListBody
          testId="console-accounts"
          filter={{
            label: t('lists.filter'),
            placeholder: t('console.accounts.filter_placeholder'),
            value: text,
            onChange: setText,
          }}
          selects={
            <SortSelect
              keys={ACCOUNT_SORTS}
              labelOf={(key) => t(`console.accounts.${key}`)}
              value={sort}
              onChange={setSort}
              testId="console-accounts-sort"
            />
          }
          pagedOnServer
          loading={list.isPending}
          pagination={{ page, pageSize: LIST_PAGE_SIZE, total, onChange: setPage }}
        >
          <ListTable
            testId="console-accounts"
            busy={list.isFetching}
            records={accounts}
            columns={columns}
            emptyText={emptyText}
            rowAttributes={(account) => ({ 'data-domain': account.domain })}
          />
        </ListBody>
      </ListCard>
      <AccountUsersModal domain={usersOf?.domain ?? null} onClose={closeUsers} />
    </ListPage>
  );
}
