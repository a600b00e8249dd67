import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../lib/resource-paths';
import { usePageTitle } from '../lib/use-page-title';
import { useTranslation } from '../lib/use-translation';

/** 'Error 404: Page not found!' and a way back to the dashboard. */
export function NotFoundView() {
  const { t } = useTranslation();
  usePageTitle(t('not_found.title'));
  return (
    <Card withBorder padding="xl" data-testid="not-found">
      <Stack align="center" gap="md">
        <Title order={1} size="h2" ta="center">
          {t('not_found.message')}
        </Title>
        <Text c="dimmed" ta="center">
          {t('not_found.hint')}
        </Text>
        <Button component={Link} to={paths.dashboard} leftSection={<IconArrowLeft size={16} aria-hidden />}>
          {t('not_found.back')}
        </Button>
      </Stack>
    </Card>
  );
}
