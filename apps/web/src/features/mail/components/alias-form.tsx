import { Checkbox, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormButtons } from '../../../components/form-buttons';
import { blurCheck } from '../../../lib/blur-check';
import { notifyError } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { type AliasFormValues, aliasServerErrors, validateAliasForm } from '../lib/mail-forms';
import { AliasTargetsField } from './alias-targets-field';

/**
 * Create: name (or the whole domain) and targets. Edit: only the targets (the name is fixed).
 * The server's field errors land on `name` and on the target row they name.
 */
export function AliasForm({
  mode,
  domain,
  aliasName,
  initialTargets,
  submitting,
  onSubmit,
  onCancel,
}: {
  mode: 'create' | 'edit';
  domain: string;
  /** The alias's display name (edit). */
  aliasName?: string;
  initialTargets: string[];
  submitting: boolean;
  onSubmit: (values: AliasFormValues) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm<AliasFormValues>({
    mode: 'controlled',
    initialValues: { name: '', wholeDomain: false, targets: initialTargets },
    validate: (values) =>
      Object.fromEntries(Object.entries(validateAliasForm(values, mode)).map(([field, key]) => [field, t(key)])),
  });
  const values = form.getValues();
  const submit = form.onSubmit(async (submitted) => {
    try {
      await onSubmit(submitted);
    } catch (error) {
      notifyError(error);
      const errors = aliasServerErrors(error, submitted.targets);
      if (Object.keys(errors).length > 0) form.setErrors(errors);
    }
  });
  const name = values.name.trim();
  return (
    <form onSubmit={submit} noValidate data-testid={`mail-alias-${mode}-form`}>
      <Stack gap="md">
        {mode === 'create' ? (
          <>
            <TextInput
              {...form.getInputProps('name')}
              onBlur={blurCheck(form, 'name')}
              label={t('mail.alias_name')}
              description={t('mail.address_preview', {
                address: values.wholeDomain ? t('mail.every_address', { domain }) : `${name || '…'}@${domain}`,
              })}
              disabled={values.wholeDomain}
              required={!values.wholeDomain}
              maxLength={64}
              autoComplete="off"
              data-autofocus
              data-testid="mail-name"
            />
            <Checkbox
              {...form.getInputProps('wholeDomain', { type: 'checkbox' })}
              onChange={(event) => {
                form.setFieldValue('wholeDomain', event.currentTarget.checked);
                form.clearFieldError('name');
              }}
              label={t('mail.whole_domain', { domain })}
              data-testid="mail-whole-domain"
            />
          </>
        ) : (
          <Text size="sm">
            {t('mail.alias')}:{' '}
            <Text component="span" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {aliasName}
            </Text>
          </Text>
        )}
        <AliasTargetsField form={form} />
        <FormButtons submitting={submitting} onCancel={onCancel} submitTestId="mail-submit" />
      </Stack>
    </form>
  );
}
