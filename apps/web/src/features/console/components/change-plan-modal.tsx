import { NativeSelect, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ConsoleService } from '@panel247/contract/console';
import { AppModal } from '../../../components/app-modal';
import { FormButtons } from '../../../components/form-buttons';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useChangeService } from '../api/change-service';
import { usePlans } from '../api/list-plans';

function PlanForm({ service, onClose }: { service: ConsoleService; onClose: () => void }) {
  const { t } = useTranslation();
  const plans = usePlans();
  const change = useChangeService();
  const form = useForm({
    mode: 'controlled',
    initialValues: { plan: service.plan },
    validate: { plan: (value) => (value ? null : t('validation.required')) },
  });
  const submit = form.onSubmit(async ({ plan }) => {
    try {
      const { info } = await change.mutateAsync({ kind: 'plan', domain: service.domain, plan });
      notifySuccess(info);
      onClose();
    } catch (error) {
      // a downgrade the service does not fit is refused with what exceeds it
      handleFormError(form, error);
    }
  });
  return (
    <form onSubmit={submit} noValidate data-testid="plan-change-form">
      <Stack gap="md">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t('console.change_plan.text', { domain: service.domain, plan: service.plan })}
        </Text>
        <NativeSelect
          label={t('console.services.plan')}
          // the current plan is offered even before (or without) the list
          data={[...new Set([service.plan, ...(plans.data ?? []).map((plan) => plan.name)])]}
          error={form.errors.plan ?? (plans.isError ? t('console.plans.load_error') : undefined)}
          data-autofocus
          data-testid="plan-change-select"
          value={form.values.plan}
          onChange={(event) => form.setFieldValue('plan', event.currentTarget.value)}
        />
        <FormButtons
          submitting={change.isPending}
          onCancel={onClose}
          submitTestId="plan-change-submit"
          submitLabel={t('console.change_plan.submit')}
        />
      </Stack>
    </form>
  );
}

/** Another plan for a service: the plans' names to choose from, its current one chosen. */
export function ChangePlanModal({ service, onClose }: { service: ConsoleService | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <AppModal
      opened={service !== null}
      onClose={onClose}
      title={t('console.change_plan.title')}
      data-testid="plan-change-modal"
    >
      {service ? <PlanForm service={service} onClose={onClose} /> : null}
    </AppModal>
  );
}
