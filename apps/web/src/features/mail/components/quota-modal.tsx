import { NumberInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { AppModal } from '../../../components/app-modal';
import { FormButtons } from '../../../components/form-buttons';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';
import { useSetMailboxQuota } from '../api/mailbox-rules';
import { quotaError } from '../lib/mail-forms';
import type { AccountDialogProps, AccountRow } from '../lib/mail-rows';

const MIB = 1024 * 1024;

function QuotaForm({ row, serviceId, onClose }: { row: AccountRow; serviceId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSetMailboxQuota(serviceId);
  const form = useForm<{ quota: string | number }>({
    mode: 'controlled',
    initialValues: { quota: Math.max(1, Math.round(row.mailbox.quota / MIB)) },
    validate: {
      quota: (value) => {
        if (value === '') return t('validation.required');
        const problem = quotaError(value);
        return problem ? t(problem) : null;
      },
    },
  });
  const submit = form.onSubmit(async ({ quota }) => {
    try {
      const { info } = await save.mutateAsync({ accountId: row.mailbox.id, quotaMb: Number(quota) });
      notifySuccess(info);
      onClose();
    } catch (error) {
      handleFormError(form, error);
    }
  });
  return (
    <form onSubmit={submit} noValidate data-testid="mail-quota-form">
      <Stack gap="md">
        <Text size="sm">
          {t('mail.account')}:{' '}
          <Text component="span" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {row.name}
          </Text>
        </Text>
        <NumberInput
          {...form.getInputProps('quota')}
          label={t('mail.quota')}
          description={t('mail.quota_plan_hint')}
          min={1}
          step={100}
          allowDecimal={false}
          allowNegative={false}
          suffix=" MiB"
          required
          data-autofocus
          data-testid="mail-quota-input"
        />
        <FormButtons submitting={save.isPending} onCancel={onClose} submitTestId="mail-quota-submit" />
      </Stack>
    </form>
  );
}

/** Change an account's quota within the plan's limit (needs the account right). */
export function QuotaModal({ row, onClose, serviceId, allowed }: AccountDialogProps) {
  const { t } = useTranslation();
  const shown = useRightGuard(row !== null, allowed, onClose);
  return (
    <AppModal
      opened={row !== null && shown}
      onClose={onClose}
      title={t('mail.quota_title')}
      data-testid="mail-quota-modal"
    >
      {row ? <QuotaForm key={row.key} row={row} serviceId={serviceId} onClose={onClose} /> : null}
    </AppModal>
  );
}
