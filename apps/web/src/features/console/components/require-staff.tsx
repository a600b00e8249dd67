import { Button, Card, Center, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { Navigate } from 'react-router';
import { DelayedSpinner } from '../../../components/delayed-spinner';
import { translateError } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { onStaffSessionLost } from '../api/console-api';
import { useStaffInfo } from '../api/get-staff-info';
import { consolePaths } from '../lib/console-paths';
import { forgetStaff } from '../lib/forget-staff';

/**
 * The console's screens need a staff session: without one (or once a call answers 401) they give
 * way to the console's own sign-in page, never the customers' login or session-loss dialog.
 */
export function RequireStaff({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const info = useStaffInfo();
  useEffect(() => onStaffSessionLost(() => forgetStaff(queryClient)), [queryClient]);

  if (info.isPending) return <DelayedSpinner />;
  if (info.isError) {
    return (
      <Center mih="100dvh" p="md">
        <Card withBorder padding="xl" maw={420} data-testid="console-info-error">
          <Stack gap="md">
            <Text role="alert">{translateError(info.error)}</Text>
            <Button onClick={() => void info.refetch()} loading={info.isFetching}>
              {t('console.retry')}
            </Button>
          </Stack>
        </Card>
      </Center>
    );
  }
  if (!info.data) return <Navigate to={consolePaths.login} replace />;
  return children;
}
