import { Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ACCOUNT_USERNAME_PATTERN } from '@panel247/contract/account-users';
import { AppModal } from '../../../components/app-modal';
import { FormButtons } from '../../../components/form-buttons';
import { blurCheck } from '../../../lib/blur-check';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useCreateUser } from '../api/create-user';

interface Values {
  username: string;
  email: string;
}

function CreateForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateUser();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { username: '', email: '' },
    validate: {
      username: (value) =>
        !value.trim()
          ? t('validation.required')
          : ACCOUNT_USERNAME_PATTERN.test(value.trim())
            ? null
            : t('users.username_format'),
      email: (value) => (value.trim() ? null : t('validation.required')),
    },
  });
  const submit = form.onSubmit(async (values) => {
    try {
      const { info } = await create.mutateAsync({ username: values.username.trim(), email: values.email.trim() });
      notifySuccess(info);
      onClose();
    } catch (error) {
      // the server's field errors (a name taken, an address refused) land under their fields
      handleFormError(form, error);
    }
  });
  return (
    <form onSubmit={submit} noValidate data-testid="user-create-form">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('users.create_hint')}
        </Text>
        <TextInput
          {...form.getInputProps('username')}
          onBlur={blurCheck(form, 'username')}
          label={t('users.username')}
          description={t('users.username_hint')}
          required
          maxLength={64}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          data-autofocus
          data-testid="user-username-input"
        />
        <TextInput
          {...form.getInputProps('email')}
          onBlur={blurCheck(form, 'email')}
          type="email"
          label={t('users.email')}
          description={t('users.email_hint')}
          required
          maxLength={254}
          autoComplete="off"
          spellCheck={false}
          data-testid="user-email-input"
        />
        <FormButtons
          submitting={create.isPending}
          onCancel={onClose}
          submitTestId="user-create-submit"
          submitLabel={t('users.invite')}
        />
      </Stack>
    </form>
  );
}

/** A new user: their name and where the invitation goes; they set their own password from it. */
export function UserCreateModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <AppModal opened={opened} onClose={onClose} title={t('users.create_title')} data-testid="user-create-modal">
      {opened ? <CreateForm onClose={onClose} /> : null}
    </AppModal>
  );
}
