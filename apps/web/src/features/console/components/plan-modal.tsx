import { SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ConsolePlan } from '@panel247/contract/console';
import { AppModal } from '../../../components/app-modal';
import { FormButtons } from '../../../components/form-buttons';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useSavePlan } from '../api/save-plan';
import {
  CRON_INTERVAL_MAX,
  isSizeLimit,
  PHP_WORKERS_MAX,
  PLAN_LIMITS,
  PLAN_SETTINGS,
  type PlanSetting,
  type PlanValues,
  planPayload,
  planValues,
  validatePlan,
} from '../lib/plan-form';

function PlanForm({ plan, onClose }: { plan: ConsolePlan | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSavePlan();
  const form = useForm<PlanValues>({
    mode: 'controlled',
    initialValues: planValues(plan),
    validate: (values) =>
      Object.fromEntries(
        Object.entries(validatePlan(values)).map(([field, key]) => [
          field,
          // a setting's range names its own bound; the other messages have none
          t(key, { max: PLAN_SETTINGS[field as PlanSetting]?.max }),
        ]),
      ),
  });
  const submit = form.onSubmit(async (values) => {
    try {
      const { info } = await save.mutateAsync(planPayload(values, plan === null));
      notifySuccess(info);
      onClose();
    } catch (error) {
      // a lower limit that a service already exceeds comes back naming the service and the limit
      handleFormError(form, error);
    }
  });
  return (
    <form onSubmit={submit} noValidate data-testid="plan-form">
      <Stack gap="md">
        <TextInput
          label={t('console.plans.name')}
          description={plan ? undefined : t('console.plans.name_hint')}
          required
          disabled={plan !== null}
          maxLength={63}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          data-autofocus={plan === null || undefined}
          data-testid="plan-name"
          {...form.getInputProps('name')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="sm">
          {PLAN_LIMITS.map((limit, index) => (
            <TextInput
              key={limit}
              label={t(`console.plans.limit.${limit}`)}
              description={isSizeLimit(limit) ? t('console.plans.in_mb') : undefined}
              placeholder={t('console.plans.unlimited')}
              inputMode="numeric"
              autoComplete="off"
              maxLength={12}
              data-autofocus={(plan !== null && index === 0) || undefined}
              data-testid={`plan-${limit}`}
              {...form.getInputProps(limit)}
            />
          ))}
          <TextInput
            label={t('console.plans.php_versions')}
            description={t('console.plans.php_versions_hint')}
            placeholder={t('console.plans.php_all')}
            autoComplete="off"
            maxLength={200}
            data-testid="plan-phpVersions"
            {...form.getInputProps('phpVersions')}
          />
          <TextInput
            label={t('console.plans.php_workers')}
            description={t('console.plans.php_workers_hint', { max: PHP_WORKERS_MAX })}
            required
            inputMode="numeric"
            autoComplete="off"
            maxLength={3}
            data-testid="plan-phpWorkers"
            {...form.getInputProps('phpWorkers')}
          />
          <TextInput
            label={t('console.plans.cron_interval')}
            description={t('console.plans.cron_interval_hint', { max: CRON_INTERVAL_MAX })}
            required
            inputMode="numeric"
            autoComplete="off"
            maxLength={4}
            data-testid="plan-cronMinIntervalMinutes"
            {...form.getInputProps('cronMinIntervalMinutes')}
          />
        </SimpleGrid>
        <FormButtons
          submitting={save.isPending}
          onCancel={onClose}
          submitTestId="plan-submit"
          submitLabel={plan ? undefined : t('console.plans.create')}
        />
      </Stack>
    </form>
  );
}

/** A new plan (`plan` null) or one's limits changed; an empty limit is no limit. */
export function PlanModal({
  opened,
  plan,
  onClose,
}: {
  opened: boolean;
  plan: ConsolePlan | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <AppModal
      opened={opened}
      onClose={onClose}
      title={plan ? t('console.plans.edit_title', { name: plan.name }) : t('console.plans.create_title')}
      size="lg"
      data-testid="plan-modal"
    >
      {opened ? <PlanForm plan={plan} onClose={onClose} /> : null}
    </AppModal>
  );
}
