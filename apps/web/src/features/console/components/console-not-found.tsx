import { Button, Card, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/use-translation';
import { consolePaths } from '../lib/console-paths';
import { useConsoleTitle } from '../lib/use-console-title';

/** An address under /console/ the console has no page for: back to its services. */
export function ConsoleNotFound() {
  const { t } = useTranslation();
  useConsoleTitle(t('not_found.title'));
  return (
    <Card withBorder padding="xl" data-testid="console-not-found">
      <Stack align="center" gap="md">
        <Title order={1} size="h2" ta="center">
          {t('not_found.message')}
        </Title>
        <Button component={Link} to={consolePaths.services} leftSection={<IconArrowLeft size={16} aria-hidden />}>
          {t('console.back_to_services')}
        </Button>
      </Stack>
    </Card>
  );
}
