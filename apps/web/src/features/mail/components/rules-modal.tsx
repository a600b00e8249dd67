import {
  Alert,
  Checkbox,
  Divider,
  Group,
  NumberInput,
  Skeleton,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import type { MailboxRules } from '@panel247/contract/mail';
import {
  AUTOREPLY_BODY_MAX,
  AUTOREPLY_MAX_DAYS,
  AUTOREPLY_SUBJECT_MAX,
  autoreplyProblems,
  cleanTargets,
  FORWARD_MAX_TARGETS,
  isAliasTarget,
} from '@panel247/contract/mail-rules';
import { AppModal } from '../../../components/app-modal';
import { FormButtons } from '../../../components/form-buttons';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';
import { useMailboxRules, useSaveMailboxRules } from '../api/mailbox-rules';
import type { AccountDialogProps, AccountRow } from '../lib/mail-rows';

interface RulesFormValues {
  autoreply: boolean;
  subject: string;
  body: string;
  start: string;
  end: string;
  days: number | string;
  /** One address per line (commas work too). */
  forward: string;
  keepCopy: boolean;
  replaceForeign: boolean;
}

function targetsOf(text: string): string[] {
  return cleanTargets(text.split(/[\n,]/));
}

/** The form's own checks (the server runs the same rules and more): i18n keys by field. */
function validateRules(values: RulesFormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  if (values.autoreply) {
    const problems = autoreplyProblems({
      subject: values.subject,
      body: values.body,
      start: values.start,
      end: values.end,
      days: values.days === '' ? Number.NaN : Number(values.days),
    });
    for (const [field, key] of Object.entries(problems)) if (key) errors[field] = key;
  }
  const targets = targetsOf(values.forward);
  if (targets.some((target) => !isAliasTarget(target))) errors.forward = 'mail.invalid_target';
  else if (targets.length > FORWARD_MAX_TARGETS) errors.forward = 'mail.error.forward_count';
  return errors;
}

function RulesForm({
  row,
  rules,
  serviceId,
  onClose,
}: {
  row: AccountRow;
  rules: MailboxRules;
  serviceId: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveMailboxRules(serviceId);
  const form = useForm<RulesFormValues>({
    mode: 'controlled',
    initialValues: {
      autoreply: rules.autoreply.enabled,
      subject: rules.autoreply.subject,
      body: rules.autoreply.body,
      start: rules.autoreply.start,
      end: rules.autoreply.end,
      days: rules.autoreply.days,
      forward: rules.forward.targets.join('\n'),
      keepCopy: rules.forward.keepCopy,
      replaceForeign: false,
    },
    validate: (values) =>
      Object.fromEntries(
        Object.entries(validateRules(values)).map(([field, key]) => [
          field,
          t(key, { max: FORWARD_MAX_TARGETS, days: AUTOREPLY_MAX_DAYS }),
        ]),
      ),
  });
  const values = form.getValues();
  const submit = form.onSubmit(async (submitted) => {
    try {
      const { info } = await save.mutateAsync({
        accountId: row.mailbox.id,
        input: {
          autoreply: submitted.autoreply,
          subject: submitted.subject,
          body: submitted.body,
          start: submitted.start,
          end: submitted.end,
          days: submitted.days === '' ? 1 : Number(submitted.days),
          forward: targetsOf(submitted.forward),
          keepCopy: submitted.keepCopy,
          replaceForeign: submitted.replaceForeign,
        },
      });
      notifySuccess(info);
      onClose();
    } catch (error) {
      handleFormError(form, error);
    }
  });
  const off = !values.autoreply;
  return (
    <form onSubmit={submit} noValidate data-testid="mail-rules-form">
      <Stack gap="md">
        <Text size="sm">
          {t('mail.account')}:{' '}
          <Text component="span" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {row.name}
          </Text>
        </Text>
        {rules.foreignScript ? (
          <Alert color="yellow" data-testid="mail-rules-foreign">
            <Stack gap="xs">
              <Text size="sm">{t('mail.rules_foreign', { name: rules.foreignScript })}</Text>
              <Checkbox
                {...form.getInputProps('replaceForeign', { type: 'checkbox' })}
                label={t('mail.rules_replace_foreign')}
                data-testid="mail-rules-replace"
              />
            </Stack>
          </Alert>
        ) : null}
        <Switch
          {...form.getInputProps('autoreply', { type: 'checkbox' })}
          label={t('mail.autoreply_on')}
          data-autofocus
          data-testid="mail-autoreply-on"
        />
        <TextInput
          {...form.getInputProps('subject')}
          label={t('mail.autoreply_subject')}
          disabled={off}
          required={!off}
          maxLength={AUTOREPLY_SUBJECT_MAX}
          data-testid="mail-autoreply-subject"
        />
        <Textarea
          {...form.getInputProps('body')}
          label={t('mail.autoreply_body')}
          disabled={off}
          required={!off}
          autosize
          minRows={3}
          maxRows={10}
          maxLength={AUTOREPLY_BODY_MAX}
          data-testid="mail-autoreply-body"
        />
        <Group grow align="flex-start" wrap="wrap">
          <TextInput
            {...form.getInputProps('start')}
            type="date"
            label={t('mail.autoreply_start')}
            description={t('mail.autoreply_date_hint')}
            disabled={off}
            miw={150}
            data-testid="mail-autoreply-start"
          />
          <TextInput
            {...form.getInputProps('end')}
            type="date"
            label={t('mail.autoreply_end')}
            description={t('mail.autoreply_date_hint')}
            disabled={off}
            miw={150}
            data-testid="mail-autoreply-end"
          />
        </Group>
        <NumberInput
          {...form.getInputProps('days')}
          label={t('mail.autoreply_days')}
          description={t('mail.autoreply_days_hint')}
          disabled={off}
          min={1}
          max={AUTOREPLY_MAX_DAYS}
          allowDecimal={false}
          allowNegative={false}
          data-testid="mail-autoreply-days"
        />
        <Divider />
        <Textarea
          {...form.getInputProps('forward')}
          label={t('mail.forward_targets')}
          description={t('mail.forward_hint', { max: FORWARD_MAX_TARGETS })}
          placeholder={t('mail.target_placeholder')}
          autosize
          minRows={2}
          maxRows={8}
          data-testid="mail-forward"
        />
        <Checkbox
          {...form.getInputProps('keepCopy', { type: 'checkbox' })}
          label={t('mail.forward_keep_copy')}
          disabled={targetsOf(values.forward).length === 0}
          data-testid="mail-forward-keep"
        />
        <FormButtons submitting={save.isPending} onCancel={onClose} submitTestId="mail-rules-submit" />
      </Stack>
    </form>
  );
}

/** A mailbox's autoresponder and forwarding (needs the account right). */
export function RulesModal({ row, onClose, serviceId, allowed }: AccountDialogProps) {
  const { t } = useTranslation();
  const shown = useRightGuard(row !== null, allowed, onClose);
  const rules = useMailboxRules(serviceId, row && shown ? row.mailbox.id : null);
  return (
    <AppModal
      opened={row !== null && shown}
      onClose={onClose}
      title={t('mail.rules_title')}
      size="lg"
      data-testid="mail-rules-modal"
    >
      {row && rules.data ? (
        <RulesForm
          key={`${row.key}-${rules.dataUpdatedAt}`}
          row={row}
          rules={rules.data.rules}
          serviceId={serviceId}
          onClose={onClose}
        />
      ) : rules.isError ? (
        <Text c="red" size="sm">
          {t('mail.load_error')}
        </Text>
      ) : (
        <Stack gap="sm" data-testid="mail-rules-loading">
          <Skeleton height={24} />
          <Skeleton height={36} />
          <Skeleton height={80} />
        </Stack>
      )}
    </AppModal>
  );
}
