import { Card, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../../lib/use-page-title';

/** The frame of an area a later issue fills in: its title and reference, a short note. */
export function AreaPlaceholder({ title, reference, testId }: { title: string; reference: string; testId: string }) {
  const { t } = useTranslation();
  usePageTitle(`${title} · ${reference}`);
  return (
    <Stack gap="md" data-testid={testId}>
      <Title order={1} size="h2">
        {reference}
      </Title>
      <Card withBorder padding="lg">
        <Title order={2} size="h4" mb="xs">
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          {t('resource.coming_soon')}
        </Text>
      </Card>
    </Stack>
  );
}
