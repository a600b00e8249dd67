import { Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Passkey } from '@panel247/contract/passkey';
import { useEffect } from 'react';
import { AppModal } from '../../../components/app-modal';
import { FormButtons } from '../../../components/form-buttons';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useRenamePasskey } from '../api/passkey-rename';
import { PasskeyNameField, passkeyNameError } from './passkey-name-field';

/** Renaming a passkey: its name only, prefilled; open while `passkey` is set. */
export function PasskeyRenameModal({ passkey, onClose }: { passkey: Passkey | null; onClose: () => void }) {
  const { t } = useTranslation();
  const rename = useRenamePasskey();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { name: '' },
    validate: { name: (value) => passkeyNameError(value, t) },
  });
  // Each opening starts from the passkey's name, without the errors of an earlier try.
  const { setInitialValues, reset } = form;
  const current = passkey?.name;
  useEffect(() => {
    if (current === undefined) return;
    setInitialValues({ name: current });
    reset();
  }, [current, setInitialValues, reset]);

  const submit = form.onSubmit(async (values) => {
    if (!passkey) return;
    try {
      const answer = await rename.mutateAsync({ id: passkey.id, name: values.name.trim() });
      notifySuccess(answer.system.info);
      onClose();
    } catch (error) {
      handleFormError(form, error);
    }
  });

  return (
    <AppModal
      opened={passkey !== null}
      onClose={onClose}
      title={t('passkeys.rename_title', { name: passkey?.name ?? '' })}
      data-testid="passkey-rename-modal"
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <PasskeyNameField testId="passkey-rename-name" key={form.key('name')} {...form.getInputProps('name')} />
          <FormButtons submitting={rename.isPending} onCancel={onClose} submitTestId="passkey-rename-submit" />
        </Stack>
      </form>
    </AppModal>
  );
}
