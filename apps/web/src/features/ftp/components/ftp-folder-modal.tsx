import { Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { FtpAccount } from '@panel247/contract/ftp';
import { AppModal } from '../../../components/app-modal';
import { FormButtons } from '../../../components/form-buttons';
import { blurCheck } from '../../../lib/blur-check';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';
import { useSaveFtpFolder } from '../api/save-ftp-folder';
import { folderError, folderLabel, folderToApi } from '../lib/ftp-rules';
import { FtpFolderInput } from './ftp-folder-input';

function FolderForm({ account, serviceId, onClose }: { account: FtpAccount; serviceId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveFtpFolder(serviceId);
  const form = useForm<{ folder: string }>({
    mode: 'controlled',
    initialValues: { folder: folderLabel(account.directorio) },
    validate: {
      folder: (value) => {
        const key = folderError(value);
        return key ? t(key) : null;
      },
    },
  });
  const submit = form.onSubmit(async (values) => {
    try {
      const { info } = await save.mutateAsync({ accountId: account.id, folder: folderToApi(values.folder) });
      notifySuccess(info);
      onClose();
    } catch (error) {
      handleFormError(form, error);
    }
  });
  return (
    <form onSubmit={submit} noValidate data-testid="ftp-folder-form">
      <Stack gap="md">
        <Text size="sm">
          {t('ftp.account')}:{' '}
          <Text component="span" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {account.user}
          </Text>
        </Text>
        <FtpFolderInput
          value={form.getValues().folder}
          error={form.getInputProps('folder').error}
          onChange={(value) => form.setFieldValue('folder', value)}
          onBlur={blurCheck(form, 'folder')}
          autoFocus
        />
        <FormButtons submitting={save.isPending} onCancel={onClose} submitTestId="ftp-submit" />
      </Stack>
    </form>
  );
}

/** Change the folder an account opens in (needs the FTP right). */
export function FtpFolderModal({
  account,
  onClose,
  serviceId,
  allowed,
}: {
  account: FtpAccount | null;
  onClose: () => void;
  serviceId: number;
  allowed: boolean;
}) {
  const { t } = useTranslation();
  const shown = useRightGuard(account !== null, allowed, onClose);
  return (
    <AppModal
      opened={account !== null && shown}
      onClose={onClose}
      title={t('ftp.folder_title')}
      data-testid="ftp-folder-modal"
    >
      {account ? <FolderForm key={account.id} account={account} serviceId={serviceId} onClose={onClose} /> : null}
    </AppModal>
  );
}
