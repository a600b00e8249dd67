import { Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FILE_NAME_MAX, isFileName } from '@panel247/contract/files';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal';
import { FormButtons } from '../../../components/form-buttons';
import { blurCheck } from '../../../lib/blur-check';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';

/** What the dialog is for: a new folder's name, or a new name for an entry. */
export interface NameRequest {
  title: string;
  label: string;
  submitLabel: string;
  initial: string;
  /** The call; it returns the server's info messages. */
  submit: (name: string) => Promise<readonly string[]>;
}

function NameForm({ request, busy, onClose }: { request: NameRequest; busy: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const form = useForm<{ name: string }>({
    mode: 'controlled',
    initialValues: { name: request.initial },
    validate: {
      name: (value) => {
        if (value === '') return t('validation.required');
        return isFileName(value) ? null : t('files.invalid_name');
      },
    },
  });
  const submit = form.onSubmit(async ({ name }) => {
    try {
      notifySuccess(await request.submit(name));
      onClose();
    } catch (error) {
      handleFormError(form, error);
    }
  });
  return (
    <form onSubmit={submit} noValidate data-testid="files-name-form">
      <Stack gap="md">
        <TextInput
          label={request.label}
          {...form.getInputProps('name')}
          onBlur={blurCheck(form, 'name')}
          maxLength={FILE_NAME_MAX}
          autoComplete="off"
          spellCheck={false}
          data-autofocus
          data-testid="files-name-input"
        />
        <FormButtons
          submitting={busy}
          onCancel={onClose}
          submitTestId="files-name-submit"
          submitLabel={request.submitLabel}
        />
      </Stack>
    </form>
  );
}

/** Asks for a name: a new folder's, or the new name of a file or folder. */
export function FileNameModal({
  request,
  busy,
  onClose,
}: {
  request: NameRequest | null;
  busy: boolean;
  onClose: () => void;
}) {
  return (
    <AppModal opened={request !== null} onClose={onClose} title={request?.title} data-testid="files-name-modal">
      {request ? (
        <NameForm key={request.title + request.initial} request={request} busy={busy} onClose={onClose} />
      ) : null}
    </AppModal>
  );
}
