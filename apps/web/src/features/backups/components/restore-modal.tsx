import { Alert, Checkbox, Group, NativeSelect, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { BackupJob, BackupSnapshot } from '@panel247/contract/backups';
import { IconAlertTriangle } from '@tabler/icons-react';
import { AppModal } from '../../../components/app-modal';
import { FormButtons } from '../../../components/form-buttons';
import { blurCheck } from '../../../lib/blur-check';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';
import { useRestoreBackup } from '../api/restore-backup';
import { mailFolderName } from '../lib/mail-folder-name';
import {
  hasPlacement,
  initialRestoreValues,
  type RestoreKind,
  type RestoreValues,
  replacesCurrent,
  restoreKinds,
  restoreRequest,
  validateRestore,
} from '../lib/restore-request';

function RestoreForm({
  serviceId,
  snapshot,
  date,
  onStarted,
  onClose,
}: {
  serviceId: number;
  snapshot: BackupSnapshot;
  date: string;
  onStarted: (job: BackupJob) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const restore = useRestoreBackup(serviceId);
  const form = useForm<RestoreValues>({
    mode: 'controlled',
    initialValues: initialRestoreValues(snapshot.holds),
    validate: (values) =>
      Object.fromEntries(Object.entries(validateRestore(values)).map(([field, key]) => [field, t(key)])),
  });
  const values = form.getValues();
  const submit = form.onSubmit(async (submitted) => {
    try {
      const { job, info } = await restore.mutateAsync(restoreRequest(snapshot.id, submitted));
      notifySuccess(info);
      onStarted(job);
      onClose();
    } catch (error) {
      handleFormError(form, error);
    }
  });
  const replacing = replacesCurrent(values);
  const mailFolders = snapshot.holds.mailFolders[values.mailbox] ?? [];
  return (
    <form onSubmit={submit} noValidate data-testid="backups-restore-form">
      <Stack gap="md">
        <Text size="sm">{t('backups.restore.intro', { date })}</Text>
        <Radio.Group
          label={t('backups.restore.what')}
          value={values.what}
          onChange={(value) => {
            form.setFieldValue('what', value as RestoreKind);
            // a confirmation belongs to one choice: another one asks again
            form.setFieldValue('overwrite', false);
            form.clearErrors();
          }}
        >
          <Stack gap="xs" mt={6}>
            {restoreKinds(snapshot.holds).map((kind) => (
              <Radio
                key={kind}
                value={kind}
                label={t(`backups.restore.kind_${kind}`)}
                data-testid={`backups-what-${kind}`}
              />
            ))}
          </Stack>
        </Radio.Group>

        {values.what === 'files' ? (
          <TextInput
            {...form.getInputProps('path')}
            onBlur={blurCheck(form, 'path')}
            label={t('backups.restore.path')}
            description={t('backups.restore.path_hint')}
            leftSection={
              <Text size="sm" c="dimmed" aria-hidden>
                /
              </Text>
            }
            autoComplete="off"
            spellCheck={false}
            data-testid="backups-restore-path"
          />
        ) : null}
        {values.what === 'mailbox' ? (
          <NativeSelect
            {...form.getInputProps('mailbox')}
            onChange={(event) => {
              form.setFieldValue('mailbox', event.currentTarget.value);
              // a folder belongs to one mailbox
              form.setFieldValue('mailFolder', '');
            }}
            label={t('backups.restore.mailbox')}
            data={snapshot.holds.mailboxes}
            data-testid="backups-restore-mailbox"
          />
        ) : null}
        {values.what === 'mailbox' && mailFolders.length > 0 ? (
          <NativeSelect
            {...form.getInputProps('mailFolder')}
            label={t('backups.restore.mail_folder')}
            data={[
              { value: '', label: t('backups.restore.mail_folder_all') },
              ...mailFolders.map((folder) => ({ value: folder, label: mailFolderName(folder) })),
            ]}
            data-testid="backups-restore-mail-folder"
          />
        ) : null}
        {values.what === 'database' ? (
          <NativeSelect
            {...form.getInputProps('database')}
            label={t('backups.restore.database')}
            data={snapshot.holds.databases}
            data-testid="backups-restore-database"
          />
        ) : null}
        {hasPlacement(values.what) ? (
          <Radio.Group
            label={t('backups.restore.placement')}
            value={values.placement}
            onChange={(value) => {
              form.setFieldValue('placement', value === 'new' ? 'new' : 'over');
              form.setFieldValue('overwrite', false);
            }}
          >
            <Group gap="md" mt={6}>
              <Radio
                value="over"
                label={t(`backups.restore.over_${values.what}`)}
                data-testid="backups-placement-over"
              />
              <Radio value="new" label={t(`backups.restore.new_${values.what}`)} data-testid="backups-placement-new" />
            </Group>
          </Radio.Group>
        ) : null}
        {values.what === 'files' && values.placement === 'new' ? (
          <TextInput
            {...form.getInputProps('toFolder')}
            onBlur={blurCheck(form, 'toFolder')}
            label={t('backups.restore.folder')}
            description={t('backups.restore.folder_hint')}
            required
            autoComplete="off"
            spellCheck={false}
            data-testid="backups-restore-folder"
          />
        ) : null}

        {replacing ? (
          <Alert color="orange" icon={<IconAlertTriangle size={18} aria-hidden />} p="sm">
            <Checkbox
              {...form.getInputProps('overwrite', { type: 'checkbox' })}
              label={
                values.what === 'mailbox' && values.mailFolder !== ''
                  ? t('backups.restore.confirm_mail_folder', { folder: mailFolderName(values.mailFolder) })
                  : t(`backups.restore.confirm_${values.what}`)
              }
              data-testid="backups-restore-confirm"
            />
          </Alert>
        ) : null}
        <FormButtons
          submitting={restore.isPending}
          onCancel={onClose}
          submitTestId="backups-restore-submit"
          submitLabel={t('backups.restore.submit')}
        />
      </Stack>
    </form>
  );
}

/**
 * Restores one part of a snapshot: the files (a path, over the current ones or into a new
 * folder), a mailbox (or one of its folders), a database or the DNS zone. What would replace current data asks to be
 * confirmed first.
 */
export function RestoreModal({
  snapshot,
  date,
  serviceId,
  allowed,
  onStarted,
  onClose,
}: {
  snapshot: BackupSnapshot | null;
  /** The snapshot's date as the list shows it. */
  date: string;
  serviceId: number;
  allowed: boolean;
  onStarted: (job: BackupJob) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const shown = useRightGuard(snapshot !== null, allowed, onClose);
  return (
    <AppModal
      opened={snapshot !== null && shown}
      onClose={onClose}
      title={t('backups.restore.title')}
      size="lg"
      data-testid="backups-restore-modal"
    >
      {snapshot ? (
        <RestoreForm serviceId={serviceId} snapshot={snapshot} date={date} onStarted={onStarted} onClose={onClose} />
      ) : null}
    </AppModal>
  );
}
