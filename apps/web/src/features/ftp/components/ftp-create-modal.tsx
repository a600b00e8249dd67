import { Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FTP_USER_MAX } from '@panel247/contract/ftp-rules';
import { AppModal } from '../../../components/app-modal';
import { FormButtons } from '../../../components/form-buttons';
import { PasswordField } from '../../../components/password-field';
import { blurCheck } from '../../../lib/blur-check';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';
import { useCreateFtpAccount } from '../api/create-ftp-account';
import { type FtpCreateValues, folderToApi, validateFtpCreate } from '../lib/ftp-rules';
import { FtpFolderInput } from './ftp-folder-input';

function CreateForm({ serviceId, domain, onClose }: { serviceId: number; domain: string; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateFtpAccount(serviceId);
  const form = useForm<FtpCreateValues>({
    mode: 'controlled',
    initialValues: { ftpUser: '', password: '', folder: '/' },
    validate: (values) =>
      Object.fromEntries(Object.entries(validateFtpCreate(values)).map(([field, key]) => [field, t(key)])),
  });
  const values = form.getValues();
  const user = values.ftpUser.trim().toLowerCase();
  const submit = form.onSubmit(async (submitted) => {
    try {
      const { info } = await create.mutateAsync({
        ftpUser: submitted.ftpUser.trim(),
        password: submitted.password,
        folder: folderToApi(submitted.folder),
      });
      notifySuccess(info);
      onClose();
    } catch (error) {
      handleFormError(form, error);
    }
  });
  const suffix = `@${domain}`;
  return (
    <form onSubmit={submit} noValidate data-testid="ftp-create-form">
      <Stack gap="md">
        <TextInput
          {...form.getInputProps('ftpUser')}
          onBlur={blurCheck(form, 'ftpUser')}
          label={t('ftp.user')}
          description={t('ftp.user_hint', { max: FTP_USER_MAX })}
          rightSection={
            <Text size="sm" c="dimmed" pr="xs" style={{ whiteSpace: 'nowrap' }} aria-hidden>
              {suffix}
            </Text>
          }
          rightSectionWidth={`calc(${suffix.length}ch + 1.25rem)`}
          rightSectionPointerEvents="none"
          required
          maxLength={FTP_USER_MAX}
          autoComplete="off"
          spellCheck={false}
          data-autofocus
          data-testid="ftp-user-input"
        />
        <Text size="sm" c="dimmed" data-testid="ftp-login-preview" style={{ overflowWrap: 'anywhere' }}>
          {t('ftp.login_preview', { login: `${user || '…'}${suffix}` })}
        </Text>
        <PasswordField
          label={t('password.label')}
          value={values.password}
          error={form.getInputProps('password').error}
          onChange={(value) => form.setFieldValue('password', value)}
          onBlur={blurCheck(form, 'password')}
          testId="ftp-password-input"
        />
        <FtpFolderInput
          value={values.folder}
          error={form.getInputProps('folder').error}
          onChange={(value) => form.setFieldValue('folder', value)}
          onBlur={blurCheck(form, 'folder')}
        />
        <FormButtons
          submitting={create.isPending}
          onCancel={onClose}
          submitTestId="ftp-submit"
          submitLabel={t('ftp.create')}
        />
      </Stack>
    </form>
  );
}

/** A new FTP account: name (the domain is appended), password (or a generated one), folder. */
export function FtpCreateModal({
  opened,
  onClose,
  serviceId,
  domain,
  allowed,
}: {
  opened: boolean;
  onClose: () => void;
  serviceId: number;
  domain: string;
  allowed: boolean;
}) {
  const { t } = useTranslation();
  const shown = useRightGuard(opened, allowed, onClose);
  return (
    <AppModal
      opened={opened && shown}
      onClose={onClose}
      title={t('ftp.create_title')}
      size="lg"
      data-testid="ftp-create-modal"
    >
      {opened ? <CreateForm serviceId={serviceId} domain={domain} onClose={onClose} /> : null}
    </AppModal>
  );
}
