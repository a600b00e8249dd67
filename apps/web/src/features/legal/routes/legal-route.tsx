import { Card, Stack, Text, Title } from '@mantine/core';
import { useApp } from '../../../lib/app-context';
import { usePageTitle } from '../../../lib/use-page-title';
import { useTranslation } from '../../../lib/use-translation';

/** The sections of the terms of use, in the order the spec lists them. */
export const LEGAL_SECTIONS = ['identification', 'conditions', 'privacy', 'liability', 'contact', 'law'] as const;

export default function LegalRoute() {
  const { t } = useTranslation();
  const { config } = useApp();
  usePageTitle(t('legal.title'));
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('legal.title')}
      </Title>
      <Card withBorder padding="lg" component="article">
        <Stack gap="lg">
          <Text size="sm" c="dimmed">
            {t('legal.intro', { company: config.company })}
          </Text>
          {LEGAL_SECTIONS.map((section, index) => (
            <Stack key={section} gap="xs" component="section" data-testid={`legal-${section}`}>
              <Title order={2} size="h4">
                {index + 1}. {t(`legal.${section}.title`)}
              </Title>
              {t(`legal.${section}.body`, { company: config.company })
                .split('\n\n')
                .map((paragraph) => (
                  <Text key={paragraph.slice(0, 40)} size="sm">
                    {paragraph}
                  </Text>
                ))}
            </Stack>
          ))}
        </Stack>
      </Card>
    </Stack>
  );
}
