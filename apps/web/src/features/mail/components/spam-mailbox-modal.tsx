import { NumberInput, Radio, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  type MailboxSpam,
  SPAM_MODES,
  SPAM_THRESHOLD_DEFAULT,
  SPAM_THRESHOLD_MAX,
  SPAM_THRESHOLD_MIN,
  type SpamMode,
} from '@panel247/contract/mail-spam';
import { AppModal } from '../../../components/app-modal';
import { FormButtons } from '../../../components/form-buttons';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';
import { useSaveMailboxSpam } from '../api/save-mailbox-spam';

interface SpamValues {
  mode: SpamMode;
  threshold: number | string;
}

function thresholdProblem(value: number | string): string | null {
  const threshold = Number(value);
  return value === '' ||
    !Number.isInteger(threshold) ||
    threshold < SPAM_THRESHOLD_MIN ||
    threshold > SPAM_THRESHOLD_MAX
    ? 'mail.error.spam_threshold'
    : null;
}

function MailboxSpamForm({
  mailbox,
  address,
  serviceId,
  onClose,
}: {
  mailbox: MailboxSpam;
  address: string;
  serviceId: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveMailboxSpam(serviceId);
  const form = useForm<SpamValues>({
    mode: 'controlled',
    initialValues: { mode: mailbox.mode, threshold: mailbox.threshold || SPAM_THRESHOLD_DEFAULT },
    validate: {
      threshold: (value) => {
        const problem = thresholdProblem(value);
        return problem ? t(problem, { min: SPAM_THRESHOLD_MIN, max: SPAM_THRESHOLD_MAX }) : null;
      },
    },
  });
  const submit = form.onSubmit(async ({ mode, threshold }) => {
    try {
      const { info } = await save.mutateAsync({ accountId: mailbox.id, mode, threshold: Number(threshold) });
      notifySuccess(info);
      onClose();
    } catch (error) {
      handleFormError(form, error);
    }
  });
  return (
    <form onSubmit={submit} noValidate data-testid="spam-mailbox-form">
      <Stack gap="md">
        <Text size="sm">
          {t('mail.account')}:{' '}
          <Text component="span" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {address}
          </Text>
        </Text>
        <Radio.Group {...form.getInputProps('mode')} label={t('mail.spam.mode')} data-testid="spam-mode">
          <Stack gap="sm" mt="xs">
            {SPAM_MODES.map((mode) => (
              <Radio
                key={mode}
                value={mode}
                label={t(`mail.spam.mode_${mode}`)}
                description={t(`mail.spam.mode_${mode}_hint`)}
                data-testid={`spam-mode-${mode}`}
              />
            ))}
          </Stack>
        </Radio.Group>
        <NumberInput
          {...form.getInputProps('threshold')}
          label={t('mail.spam.threshold')}
          description={t('mail.spam.threshold_hint', {
            min: SPAM_THRESHOLD_MIN,
            max: SPAM_THRESHOLD_MAX,
            default: SPAM_THRESHOLD_DEFAULT,
          })}
          min={SPAM_THRESHOLD_MIN}
          max={SPAM_THRESHOLD_MAX}
          allowDecimal={false}
          allowNegative={false}
          // a mailbox left unfiltered keeps its threshold for when the filter is turned on again
          disabled={form.getValues().mode === 'off'}
          required
          data-testid="spam-threshold"
        />
        <FormButtons submitting={save.isPending} onCancel={onClose} submitTestId="spam-mailbox-submit" />
      </Stack>
    </form>
  );
}

/** A mailbox's spam filtering: off, moved to Junk or only tagged, and from which score. Needs the spam right. */
export function SpamMailboxModal({
  mailbox,
  address,
  onClose,
  serviceId,
  allowed,
}: {
  mailbox: MailboxSpam | null;
  /** The mailbox's whole address, as the list shows it. */
  address: string;
  onClose: () => void;
  serviceId: number;
  allowed: boolean;
}) {
  const { t } = useTranslation();
  const shown = useRightGuard(mailbox !== null, allowed, onClose);
  return (
    <AppModal
      opened={mailbox !== null && shown}
      onClose={onClose}
      title={t('mail.spam.edit_title')}
      data-testid="spam-mailbox-modal"
    >
      {mailbox ? (
        <MailboxSpamForm key={mailbox.id} mailbox={mailbox} address={address} serviceId={serviceId} onClose={onClose} />
      ) : null}
    </AppModal>
  );
}
