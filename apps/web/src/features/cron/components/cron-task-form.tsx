import { SegmentedControl, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { CRON_KINDS, type CronKind, type CronTask } from '@panel247/contract/cron';
import { useId } from 'react';
import { FormButtons } from '../../../components/form-buttons';
import { blurCheck } from '../../../lib/blur-check';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useCreateCronTask } from '../api/create-cron-task';
import { useSaveCronTask } from '../api/save-cron-task';
import { type CronFormValues, cronFormErrors, cronFormValues, cronTaskFields } from '../lib/cron-form';
import { CronScheduleField } from './cron-schedule-field';

/**
 * What a task runs (a PHP script of the home, or a URL of one of the service's sites), when, and
 * where its output is mailed; for an existing task also whether it is on. The server checks each
 * field and answers its precise error, shown under the field; the dialog then stays open.
 */
export function CronTaskForm({
  task,
  serviceId,
  domain,
  minIntervalMinutes,
  onClose,
}: {
  /** null: a new task. */
  task: CronTask | null;
  serviceId: number;
  domain: string;
  minIntervalMinutes: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const kindLabelId = useId();
  const kindErrorId = useId();
  const create = useCreateCronTask(serviceId);
  const save = useSaveCronTask(serviceId);
  const form = useForm<CronFormValues>({
    mode: 'controlled',
    initialValues: cronFormValues(task),
    validate: (values) =>
      Object.fromEntries(Object.entries(cronFormErrors(values)).map(([field, key]) => [field, t(key)])),
  });
  const values = form.getValues();
  const submit = form.onSubmit(async (submitted) => {
    const fields = cronTaskFields(submitted, task !== null);
    try {
      const { info } = task ? await save.mutateAsync({ taskId: task.id, fields }) : await create.mutateAsync(fields);
      notifySuccess(info);
      onClose();
    } catch (error) {
      handleFormError(form, error);
    }
  });
  const php = values.kind === 'php';

  return (
    <form onSubmit={submit} noValidate data-testid="cron-task-form">
      <Stack gap="md">
        <Stack gap={4}>
          <Text id={kindLabelId} size="sm" fw={500}>
            {t('cron.kind_label')}
          </Text>
          <SegmentedControl
            aria-labelledby={kindLabelId}
            aria-describedby={form.errors.kind ? kindErrorId : undefined}
            value={values.kind}
            // the options are the contract's own kinds
            onChange={(kind) => form.setFieldValue('kind', kind as CronKind)}
            data={CRON_KINDS.map((kind) => ({ value: kind, label: t(`cron.kind.${kind}`) }))}
            data-testid="cron-kind-input"
          />
          {form.errors.kind ? (
            <Text id={kindErrorId} size="sm" c="red.8" role="alert" data-testid="cron-kind-error">
              {form.errors.kind}
            </Text>
          ) : null}
        </Stack>
        <TextInput
          {...form.getInputProps('target')}
          onBlur={blurCheck(form, 'target')}
          label={php ? t('cron.target_php') : t('cron.target_url')}
          description={php ? t('cron.target_php_hint') : t('cron.target_url_hint')}
          placeholder={php ? 'cron/cleanup.php' : `https://${domain}/cron.php`}
          required
          maxLength={2048}
          autoComplete="off"
          spellCheck={false}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          data-autofocus
          data-testid="cron-target-input"
        />
        <CronScheduleField
          serviceId={serviceId}
          minIntervalMinutes={minIntervalMinutes}
          value={values.schedule}
          error={form.errors.schedule}
          onChange={(schedule) => form.setFieldValue('schedule', schedule)}
          onBlur={blurCheck(form, 'schedule')}
        />
        <TextInput
          {...form.getInputProps('email')}
          type="email"
          label={t('cron.email_label')}
          description={t('cron.email_hint')}
          maxLength={254}
          autoComplete="email"
          spellCheck={false}
          data-testid="cron-email-input"
        />
        {task ? (
          <Switch
            {...form.getInputProps('enabled', { type: 'checkbox' })}
            label={t('cron.enabled_label')}
            data-testid="cron-enabled-input"
          />
        ) : null}
        <FormButtons
          submitting={create.isPending || save.isPending}
          onCancel={onClose}
          submitTestId="cron-submit"
          submitLabel={task ? undefined : t('cron.create')}
        />
      </Stack>
    </form>
  );
}
