import { Button, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { handleFormError } from '../../../lib/form-errors';
import { type DnsFormField, type DnsFormValues, validateDnsForm } from '../lib/dns-form';
import { DnsRecordFields } from './dns-record-fields';

/**
 * The create and edit form. The shared record rules run on submit and on blur (same keys as the
 * server's); the server's own field errors (type, zona, value, ttl, priority) land under their
 * fields too.
 */
export function DnsRecordForm({
  mode,
  zoneName,
  initialValues,
  submitting,
  onSubmit,
  onCancel,
}: {
  mode: 'create' | 'edit';
  zoneName: string;
  initialValues: DnsFormValues;
  submitting: boolean;
  onSubmit: (values: DnsFormValues) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm<DnsFormValues>({
    mode: 'controlled',
    initialValues,
    validateInputOnBlur: true,
    validate: (values) => {
      const errors: Partial<Record<DnsFormField, string>> = {};
      for (const [field, key] of Object.entries(validateDnsForm(values, zoneName, mode))) {
        errors[field as DnsFormField] = t(key);
      }
      return errors;
    },
  });

  const submit = form.onSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      handleFormError(form, error);
    }
  });

  return (
    <form onSubmit={submit} noValidate data-testid={`dns-${mode}-form`}>
      <Stack gap="md">
        <DnsRecordFields form={form} mode={mode} zoneName={zoneName} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('main.cancel')}
          </Button>
          <Button type="submit" loading={submitting} data-testid="dns-submit">
            {t('main.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
