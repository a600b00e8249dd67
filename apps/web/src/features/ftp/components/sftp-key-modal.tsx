import { Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { SSH_KEY_NAME_MAX, SSH_KEY_TEXT_MAX } from '@panel247/contract/sftp-keys';
import { useFtpAccounts } from '../../../api/use-ftp-accounts';
import { AppModal } from '../../../components/app-modal';
import { FormButtons } from '../../../components/form-buttons';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';
import { useAddSftpKey } from '../api/sftp-keys';
import { SERVICE_LOGIN, type SftpKeyValues, sftpKeyPayload, validateSftpKey } from '../lib/sftp-key-form';

function KeyForm({
  serviceId,
  serviceLogin,
  onClose,
}: {
  serviceId: number;
  serviceLogin: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const add = useAddSftpKey(serviceId);
  const accounts = useFtpAccounts(serviceId);
  const logins = [
    ...(serviceLogin ? [{ value: SERVICE_LOGIN, label: t('sftp.service_login_option', { login: serviceLogin }) }] : []),
    ...(accounts.data ?? []).map((account) => ({ value: String(account.id), label: account.user })),
  ];
  const form = useForm<SftpKeyValues>({
    mode: 'controlled',
    // the service's own login first, when it has one
    initialValues: { ftpId: serviceLogin ? SERVICE_LOGIN : '', name: '', key: '' },
    validate: (values) =>
      Object.fromEntries(Object.entries(validateSftpKey(values)).map(([field, key]) => [field, t(key)])),
  });
  const submit = form.onSubmit(async (values) => {
    try {
      const { info } = await add.mutateAsync(sftpKeyPayload(values));
      notifySuccess(info);
      onClose();
    } catch (error) {
      handleFormError(form, error);
    }
  });
  return (
    <form onSubmit={submit} noValidate data-testid="sftp-key-form">
      <Stack gap="md">
        <Select
          {...form.getInputProps('ftpId')}
          label={t('sftp.key_login')}
          description={t('sftp.key_login_hint')}
          data={logins}
          placeholder={accounts.isPending ? t('main.loading') : t('sftp.choose_login')}
          allowDeselect={false}
          searchable={logins.length > 8}
          nothingFoundMessage={t('sftp.no_logins')}
          required
          data-testid="sftp-key-login-select"
        />
        <Textarea
          {...form.getInputProps('key')}
          label={t('sftp.key_text')}
          description={t('sftp.key_text_hint')}
          placeholder="ssh-ed25519 AAAAC3Nza… ana@portatil"
          autosize
          minRows={3}
          maxRows={8}
          maxLength={SSH_KEY_TEXT_MAX}
          required
          spellCheck={false}
          autoComplete="off"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', wordBreak: 'break-all' } }}
          data-autofocus
          data-testid="sftp-key-text"
        />
        <TextInput
          {...form.getInputProps('name')}
          label={t('sftp.key_name')}
          description={t('sftp.key_name_hint')}
          maxLength={SSH_KEY_NAME_MAX}
          autoComplete="off"
          data-testid="sftp-key-name-input"
        />
        <FormButtons
          submitting={add.isPending}
          onCancel={onClose}
          submitTestId="sftp-key-submit"
          submitLabel={t('sftp.add')}
        />
      </Stack>
    </form>
  );
}

/**
 * A new SSH key for one login: the service's own (when it has one) or an FTP account's. Needs the
 * FTP right and room in the plan: without them, 'no permission' and it closes.
 */
export function SftpKeyModal({
  opened,
  onClose,
  serviceId,
  serviceLogin,
  allowed,
}: {
  opened: boolean;
  onClose: () => void;
  serviceId: number;
  serviceLogin: string | null;
  allowed: boolean;
}) {
  const { t } = useTranslation();
  const shown = useRightGuard(opened, allowed, onClose);
  return (
    <AppModal
      opened={opened && shown}
      onClose={onClose}
      title={t('sftp.add_title')}
      size="lg"
      data-testid="sftp-key-modal"
    >
      {opened ? <KeyForm serviceId={serviceId} serviceLogin={serviceLogin} onClose={onClose} /> : null}
    </AppModal>
  );
}
