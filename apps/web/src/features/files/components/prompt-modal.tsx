import { Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { AppModal } from '../../../components/app-modal';
import { FormButtons } from '../../../components/form-buttons';
import { blurCheck } from '../../../lib/blur-check';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';

/**
 * What the dialog asks for, in one text field: a new folder's name, a new name, the folder to
 * copy or move to, the permission bits.
 */
export interface PromptRequest {
  title: string;
  /** A line above the field (what is being changed). */
  subject?: string;
  label: string;
  description?: string;
  submitLabel: string;
  initial: string;
  /** The call's parameter the field fills: the server's field errors come back under it. */
  field: string;
  maxLength: number;
  /** The key of the text of what is wrong with the value, or null. */
  check: (value: string) => string | null;
  /** The call; it returns the server's info messages. */
  submit: (value: string) => Promise<readonly string[]>;
}

function PromptForm({ request, busy, onClose }: { request: PromptRequest; busy: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const field = request.field;
  const form = useForm<Record<string, string>>({
    mode: 'controlled',
    initialValues: { [field]: request.initial },
    validate: {
      [field]: (value: string) => {
        const problem = request.check(value);
        return problem ? t(problem) : null;
      },
    },
  });
  const submit = form.onSubmit(async (values) => {
    try {
      notifySuccess(await request.submit(values[field] ?? ''));
      onClose();
    } catch (error) {
      handleFormError(form, error);
    }
  });
  return (
    <form onSubmit={submit} noValidate data-testid="files-prompt-form">
      <Stack gap="md">
        {request.subject ? (
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {request.subject}
          </Text>
        ) : null}
        <TextInput
          label={request.label}
          description={request.description}
          {...form.getInputProps(field)}
          onBlur={blurCheck(form, field)}
          maxLength={request.maxLength}
          autoComplete="off"
          spellCheck={false}
          data-autofocus
          data-testid="files-prompt-input"
        />
        <FormButtons
          submitting={busy}
          onCancel={onClose}
          submitTestId="files-prompt-submit"
          submitLabel={request.submitLabel}
        />
      </Stack>
    </form>
  );
}

/** Asks for one value before a change (a name, a folder, permission bits). */
export function PromptModal({
  request,
  busy,
  onClose,
}: {
  request: PromptRequest | null;
  busy: boolean;
  onClose: () => void;
}) {
  return (
    <AppModal opened={request !== null} onClose={onClose} title={request?.title} data-testid="files-prompt-modal">
      {request ? (
        <PromptForm
          key={`${request.title}|${request.subject ?? ''}|${request.initial}`}
          request={request}
          busy={busy}
          onClose={onClose}
        />
      ) : null}
    </AppModal>
  );
}
