import { Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { AppModal } from '../../../components/app-modal';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useRegisterPasskey } from '../api/passkey-register';
import { PasskeyNameField, passkeyNameError } from './passkey-name-field';
import { ReauthControls, type ReauthModalProps, reauthFactors, reauthRules, useReauthVia } from './reauth-controls';

/**
 * Adding a passkey: a name to tell it apart, the password and, with a second factor, a current one
 * (a new passkey must not be a way around it), then the browser's own dialog.
 */
export function PasskeyAddModal({ opened, onClose, needsCode, hasPasskeys }: ReauthModalProps) {
  const { t } = useTranslation();
  const register = useRegisterPasskey();
  const { ref: viaRef, via, choose } = useReauthVia(hasPasskeys);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { name: '', password: '', code: '' },
    validate: {
      name: (value) => passkeyNameError(value, t),
      ...reauthRules(needsCode, viaRef, t('validation.required')),
    },
  });
  const { reset } = form;
  useEffect(() => {
    if (opened) reset();
  }, [opened, reset]);

  const submit = form.onSubmit(async (values) => {
    try {
      const answer = await register.mutateAsync({
        name: values.name.trim(),
        ...reauthFactors(values, { needsCode, hasPasskeys }, viaRef.current),
      });
      notifySuccess(answer.system.info);
      onClose();
    } catch (error) {
      handleFormError(form, error);
    }
  });

  return (
    <AppModal opened={opened} onClose={onClose} title={t('passkeys.add')} data-testid="passkey-add-modal">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">{t('passkeys.add_text')}</Text>
          <PasskeyNameField testId="passkey-name" key={form.key('name')} {...form.getInputProps('name')} />
          <ReauthControls
            form={form}
            needsCode={needsCode}
            hasPasskeys={hasPasskeys}
            via={via}
            onChoose={choose}
            pending={register.isPending}
            onCancel={onClose}
            testId="passkey-add"
            labels={{
              submit: t('passkeys.add_submit'),
              withCode: t('passkeys.add_with_code'),
              withPasskey: t('passkeys.add_with_passkey'),
            }}
          />
        </Stack>
      </form>
    </AppModal>
  );
}
