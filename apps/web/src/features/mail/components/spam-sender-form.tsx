import { Button, Group, NativeSelect, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { SPAM_LISTS, SPAM_SENDER_TYPED_MAX, type SpamList, spamSenderProblem } from '@panel247/contract/mail-spam';
import { IconPlus } from '@tabler/icons-react';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useAddSpamSender } from '../api/add-spam-sender';

/**
 * Adds a sender (an address or a whole domain) to the allow or the block list. The contract's own
 * check runs before the call; the server's refusals (already listed, on the other list, the plan's
 * limit) land under the same field. At the plan's limit the form is disabled and `limitHintId`
 * says why.
 */
export function SpamSenderForm({
  serviceId,
  full,
  limitHintId,
}: {
  serviceId: number;
  full: boolean;
  limitHintId: string;
}) {
  const { t } = useTranslation();
  const add = useAddSpamSender(serviceId);
  const form = useForm<{ list: SpamList; sender: string }>({
    mode: 'controlled',
    initialValues: { list: 'block', sender: '' },
    validate: {
      sender: (value) => {
        const problem = spamSenderProblem(value);
        return problem ? t(problem) : null;
      },
    },
  });
  const submit = form.onSubmit(async (values) => {
    try {
      const { info } = await add.mutateAsync(values);
      notifySuccess(info);
      // the list stays chosen: senders often come in batches for one list
      form.setFieldValue('sender', '');
    } catch (error) {
      handleFormError(form, error);
    }
  });
  return (
    <form onSubmit={submit} noValidate data-testid="spam-sender-form">
      <Group gap="sm" align="flex-start" wrap="wrap">
        <NativeSelect
          {...form.getInputProps('list')}
          label={t('mail.spam.list')}
          data={SPAM_LISTS.map((list) => ({ value: list, label: t(`mail.spam.list_${list}`) }))}
          disabled={full}
          w={{ base: '100%', xs: 200 }}
          data-testid="spam-sender-list"
        />
        <TextInput
          {...form.getInputProps('sender')}
          label={t('mail.spam.sender')}
          placeholder={t('mail.spam.sender_placeholder')}
          maxLength={SPAM_SENDER_TYPED_MAX}
          autoComplete="off"
          spellCheck={false}
          disabled={full}
          style={{ flex: '1 1 240px' }}
          data-testid="spam-sender-input"
        />
        <Button
          type="submit"
          leftSection={<IconPlus size={16} aria-hidden />}
          loading={add.isPending}
          disabled={full}
          aria-describedby={full ? limitHintId : undefined}
          // level with the inputs, under their labels
          mt={{ base: 0, xs: 25 }}
          data-testid="spam-sender-add"
        >
          {t('mail.spam.add')}
        </Button>
      </Group>
    </form>
  );
}
