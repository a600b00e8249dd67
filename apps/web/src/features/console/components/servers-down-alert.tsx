import { Alert, Anchor, Badge, Text, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from '../../../lib/use-translation';
import { useServers } from '../api/list-servers';
import { consolePaths } from '../lib/console-paths';

/** How many of the provider's servers are not heard from: the one servers query, read each minute. */
function useServersDown(): number {
  return useServers().data?.down ?? 0;
}

/**
 * Over every console page but the servers' own: some servers are down, with a link to them. A
 * failed read says nothing here (the servers' page shows it).
 */
export function ServersDownAlert() {
  const { t } = useTranslation();
  const down = useServersDown();
  const { pathname } = useLocation();
  if (down === 0 || pathname.startsWith(consolePaths.servers)) return null;
  return (
    <Alert
      color="red"
      variant="light"
      role="status"
      mb="md"
      icon={<IconAlertTriangle size={18} aria-hidden />}
      title={t('console.servers.down_title')}
      data-testid="console-servers-down"
    >
      <Text size="sm">
        {t('console.servers.down_text', { count: down })}{' '}
        <Anchor component={Link} to={consolePaths.servers} size="sm">
          {t('console.servers.down_link')}
        </Anchor>
      </Text>
    </Alert>
  );
}

/** The servers' menu entry's mark: how many are down, named for a screen reader. */
export function ServersDownBadge() {
  const { t } = useTranslation();
  const down = useServersDown();
  if (down === 0) return null;
  return (
    <>
      <Badge color="red" size="sm" circle aria-hidden data-testid="console-nav-servers-down">
        {down}
      </Badge>
      <VisuallyHidden>{t('console.servers.down_text', { count: down })}</VisuallyHidden>
    </>
  );
}
