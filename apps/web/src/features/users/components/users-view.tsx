import { Button } from '@mantine/core';
import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import { IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ListBody } from '../../../components/list-body';
import { ListCard, ListPage } from '../../../components/list-page';
import { SortSelect } from '../../../components/sort-select';
import { useDialog } from '../../../lib/use-dialog';
import { useErrorToast } from '../../../lib/use-error-toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { useServerPage, useStepBack } from '../../../lib/use-server-page';
import { useTranslation } from '../../../lib/use-translation';
import { FIRST_USERS_SORT, USERS_SORTS, useUsers } from '../api/list-users';
import { useUserActions } from './use-user-actions';
import { UserCreateModal } from './user-create-modal';
import { UsersTable } from './users-table';

/** The account's users, paged, filtered and sorted on the server, with their actions and "New user". */
export function UsersView() {
  const { t } = useTranslation();
  usePageTitle(t('menu.users'));
  const [sort, setSort] = useState(FIRST_USERS_SORT);
  const { text, setText, filter, page, setPage } = useServerPage([sort.sort, sort.order]);
  const list = useUsers({ page, filter, ...sort });
  useErrorToast(list.error);
  const users = list.data?.users ?? [];
  const total = list.data?.total ?? users.length;
  useStepBack(total, list.data !== undefined, page, setPage);
  const [creating, setCreating, closeCreate] = useDialog(false);
  const actions = useUserActions();

  const emptyText = list.isError ? t('users.load_error') : filter ? t('lists.no_results') : t('users.empty');

  return (
    <ListPage testId="users-view" title={t('users.title')}>
      <ListCard
        title={t('users.list_title')}
        subtitle={t('users.subtitle')}
        actions={
          <Button
            leftSection={<IconUserPlus size={16} aria-hidden />}
            onClick={() => setCreating(true)}
            data-testid="user-create"
          >
            {t('users.create')}
          </Button>
        }
      >
        <ListBody
          testId="users"
          filter={{
            label: t('lists.filter'),
            placeholder: t('users.filter_placeholder'),
            value: text,
            onChange: setText,
          }}
          selects={
            <SortSelect
              keys={USERS_SORTS}
              dated={['lastLogin']}
              labelOf={(key) => t(key === 'username' ? 'users.username' : 'users.last_login')}
              value={sort}
              onChange={setSort}
              testId="users-sort"
            />
          }
          pagedOnServer
          loading={list.isPending}
          pagination={{ page, pageSize: LIST_PAGE_SIZE, total, onChange: setPage }}
        >
          <UsersTable
            users={users}
            emptyText={emptyText}
            busy={list.isFetching}
            busyId={actions.busyId}
            onAction={actions.run}
          />
        </ListBody>
      </ListCard>
      <UserCreateModal opened={creating} onClose={closeCreate} />
      {actions.dialog}
    </ListPage>
  );
}
