import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ServicePlan } from '@panel247/contract/hosting';
import { useTranslation } from '../../../lib/use-translation';

const COUNTS = ['sites', 'mailboxes', 'aliases', 'ftpAccounts', 'databases'] as const;

/** The service's plan and what it holds of each thing the plan counts (beyond the spec). */
export function ServicePlanCard({ plan }: { plan: ServicePlan }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="md" data-testid="hosting-plan">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('hosting.plan_title', { name: plan.name })}
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} spacing="sm" component="dl" m={0}>
          {COUNTS.map((limit) => {
            const { used, limit: allowed } = plan[limit];
            return (
              <Stack key={limit} gap={0} data-testid={`hosting-plan-${limit}`}>
                <Text size="sm" fw={600} component="dt">
                  {t(`hosting.plan_${limit}`)}
                </Text>
                <Text size="sm" component="dd" m={0} c={allowed !== null && used >= allowed ? 'red' : undefined}>
                  {allowed === null
                    ? t('hosting.plan_count_no_limit', { used })
                    : t('hosting.plan_count', { used, limit: allowed })}
                </Text>
              </Stack>
            );
          })}
        </SimpleGrid>
      </Stack>
    </Card>
  );
}
