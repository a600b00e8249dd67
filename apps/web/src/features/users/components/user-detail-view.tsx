import { Card, Group, Stack, Text, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { DelayedSpinner } from '../../../components/delayed-spinner';
import { NotFoundView } from '../../../components/not-found-view';
import { paths } from '../../../lib/resource-paths';
import { usePageTitle } from '../../../lib/use-page-title';
import { useTranslation } from '../../../lib/use-translation';
import { useAccountUser } from '../api/get-user';
import { useUserActions } from './use-user-actions';
import { UserActionsMenu } from './user-actions-menu';
import { ManagerBadge, SelfBadge, StateBadge, TwoFactorBadge } from './user-badges';
import { UserCopyControl } from './user-copy-control';
import { UserManagerSwitch } from './user-manager-switch';
import { UserPermissionsCard } from './user-permissions-card';
import { LastLogin } from './users-table';

/**
 * One user: who they are and the same actions as their row, the right to manage users, "same as
 * another user", and the permission editor. An unknown or foreign id is not found.
 */
export function UserDetailView({ id }: { id: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const query = useAccountUser(id);
  const user = query.data?.user;
  usePageTitle(user ? `${user.username} · ${t('menu.users')}` : query.isPending ? t('main.loading') : null);
  const actions = useUserActions({
    onDone: (action) => {
      if (action === 'remove') navigate(paths.users, { replace: true });
    },
  });

  if (query.isPending) return <DelayedSpinner />;
  if (!user) return <NotFoundView />;

  return (
    <Stack gap="md" data-testid="user-view">
      <Card withBorder padding="md" component="header">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
          <Stack gap={6} style={{ minWidth: 0 }}>
            <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
              {user.username}
            </Title>
            <Group gap={6} wrap="wrap">
              {user.self ? <SelfBadge /> : null}
              <StateBadge user={user} />
              <TwoFactorBadge on={user.twoFactor} />
              {user.manageUsers ? <ManagerBadge /> : null}
            </Group>
            <Group gap="lg" wrap="wrap" align="flex-start">
              <Stack gap={0}>
                <Text size="xs" c="dimmed">
                  {t('users.email')}
                </Text>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {user.email || '—'}
                </Text>
              </Stack>
              <Stack gap={0}>
                <Text size="xs" c="dimmed">
                  {t('users.last_login')}
                </Text>
                <LastLogin user={user} />
              </Stack>
            </Group>
          </Stack>
          <UserActionsMenu
            user={user}
            onAction={actions.run}
            busy={actions.busyId === user.id}
            withPermissions={false}
          />
        </Group>
      </Card>
      <Card withBorder padding="md" component="section" aria-labelledby="user-access-title">
        <Stack gap="md">
          <Title order={2} size="h4" id="user-access-title">
            {t('users.access_title')}
          </Title>
          <UserManagerSwitch user={user} />
          <UserCopyControl user={user} />
        </Stack>
      </Card>
      <UserPermissionsCard userId={user.id} />
      {actions.dialog}
    </Stack>
  );
}
