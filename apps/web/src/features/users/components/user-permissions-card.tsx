import { Stack, Text } from '@mantine/core';
import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import { ListBody } from '../../../components/list-body';
import { ListCard } from '../../../components/list-page';
import { useErrorToast } from '../../../lib/use-error-toast';
import { useServerPage, useStepBack } from '../../../lib/use-server-page';
import { useTranslation } from '../../../lib/use-translation';
import { useUserPermissions } from '../api/list-user-permissions';
import { ResourcePermissions } from './resource-permissions';

/**
 * The permission editor: the editor's resources, paged and filtered on the reference by the
 * server, one card each. A card starts over from the server's levels whenever they change (a save,
 * a copy, a change elsewhere that the realtime socket announces).
 */
export function UserPermissionsCard({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const { text, setText, filter, page, setPage } = useServerPage([userId]);
  const query = useUserPermissions(userId, { page, filter });
  useErrorToast(query.error);
  const resources = query.data?.resources ?? [];
  const total = query.data?.total ?? resources.length;
  useStepBack(total, query.data !== undefined, page, setPage);
  const emptyText = query.isError
    ? t('users.permissions_load_error')
    : filter
      ? t('lists.no_results')
      : t('users.no_resources');

  return (
    <ListCard title={t('users.permissions_title')} subtitle={t('users.permissions_hint')}>
      <ListBody
        testId="user-permissions"
        filter={{
          label: t('lists.filter'),
          placeholder: t('lists.filter_placeholder'),
          value: text,
          onChange: setText,
        }}
        pagedOnServer
        loading={query.isPending}
        pagination={{ page, pageSize: LIST_PAGE_SIZE, total, onChange: setPage }}
      >
        {resources.length === 0 ? (
          <Text size="sm" c="dimmed" ta="center" py="lg" data-testid="user-permissions-empty">
            {emptyText}
          </Text>
        ) : (
          <Stack gap="sm" aria-busy={query.isFetching} data-testid="user-permissions-list">
            {resources.map((resource) => (
              <ResourcePermissions
                key={`${resource.id}:${JSON.stringify(resource.levels)}`}
                userId={userId}
                resource={resource}
              />
            ))}
          </Stack>
        )}
      </ListBody>
    </ListCard>
  );
}
