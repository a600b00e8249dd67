import { Button } from '@mantine/core';
import { isActionable, LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { FtpAccount } from '@panel247/contract/ftp';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { IconPlus } from '@tabler/icons-react';
import { useWebftpLogin } from '../../../api/get-webftp-login';
import { ConfirmModal } from '../../../components/confirm-modal';
import { ListBody } from '../../../components/list-body';
import { ListCard, ListPage } from '../../../components/list-page';
import { PasswordChangeModal } from '../../../components/password-change-modal';
import { PasswordRevealModal } from '../../../components/password-reveal-modal';
import { notifyCall } from '../../../lib/notify';
import { openSignon } from '../../../lib/open-signon';
import { useDialog } from '../../../lib/use-dialog';
import { useErrorToast } from '../../../lib/use-error-toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useServerPage, useStepBack } from '../../../lib/use-server-page';
import { useTranslation } from '../../../lib/use-translation';
import { useChangeFtpPassword } from '../api/change-ftp-password';
import { useDeleteFtpAccount } from '../api/delete-ftp-account';
import { useFtpAccount } from '../api/get-ftp-account';
import { useFtpPage } from '../api/use-ftp-page';
import { FtpApplyingAlert } from './ftp-applying-alert';
import { FtpCreateModal } from './ftp-create-modal';
import { FtpFolderModal } from './ftp-folder-modal';
import { FtpServerCard } from './ftp-server-card';
import { FtpTable } from './ftp-table';
import { SftpCard } from './sftp-card';

/**
 * The FTP accounts of a service, the server to connect to, and their dialogs (spec section 2);
 * then SFTP and its keys (beyond the spec).
 */
export function FtpView({ set }: { set: PermissionSetData }) {
  const { t } = useTranslation();
  const serviceId = set.id;
  const canWrite = isActionable(set.permissions.service_ftp);
  usePageTitle(`${t('menu.ftp')} · ${set.reference}`);

  const { text, setText, filter, page, setPage } = useServerPage([serviceId]);
  const list = useFtpPage(serviceId, { page, filter });
  useErrorToast(list.error);
  const accounts = list.data?.ftps ?? [];
  // a full answer (no total) counts its own rows
  const total = list.data?.total ?? accounts.length;
  useStepBack(total, list.data !== undefined, page, setPage);

  const [creating, setCreating, closeCreate] = useDialog(false);
  const [folder, setFolder, closeFolder] = useDialog<FtpAccount | null>(null);
  const [password, setPassword, closePassword] = useDialog<FtpAccount | null>(null);
  const [revealing, setRevealing, closeReveal] = useDialog<FtpAccount | null>(null);
  const [deleting, setDeleting, closeDelete] = useDialog<FtpAccount | null>(null);

  const changePassword = useChangeFtpPassword(serviceId);
  const remove = useDeleteFtpAccount(serviceId);
  const webftp = useWebftpLogin(serviceId);
  // "Show password" stays listed for readers (spec section 6), but the password is the account's
  // whole power: without the FTP right the dialog says 'no permission' and closes, as the server
  // would answer, and nothing is asked for.
  const revealShown = useRightGuard(revealing !== null, canWrite, closeReveal);
  const reveal = useFtpAccount(serviceId, revealShown ? (revealing?.id ?? null) : null);
  const deleteShown = useRightGuard(deleting !== null, canWrite, closeDelete);

  const runDelete = async () => {
    if (deleting) await notifyCall(() => remove.mutateAsync(deleting.id), closeDelete);
  };

  const emptyText = list.isError ? t('ftp.load_error') : filter ? t('ftp.no_results') : t('ftp.empty');

  return (
    <ListPage testId="ftp-view" title={set.reference}>
      <FtpApplyingAlert serviceId={serviceId} canWrite={canWrite} />
      <FtpServerCard serviceId={serviceId} />
      <ListCard
        title={t('ftp.list_title')}
        actions={
          canWrite ? (
            <Button
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => setCreating(true)}
              data-testid="ftp-create"
            >
              {t('ftp.create')}
            </Button>
          ) : null
        }
      >
        <ListBody
          testId="ftp"
          filter={{ label: t('ftp.filter'), placeholder: t('ftp.filter_placeholder'), value: text, onChange: setText }}
          pagedOnServer
          loading={list.isPending}
          pagination={{ page, pageSize: LIST_PAGE_SIZE, total, onChange: setPage }}
        >
          <FtpTable
            accounts={accounts}
            canWrite={canWrite}
            emptyText={emptyText}
            busy={list.isFetching}
            webftpPending={webftp.isPending ? (webftp.variables ?? null) : null}
            actions={{
              onWebftp: (account) => openSignon(webftp.mutate, account.id),
              onShowPassword: setRevealing,
              onFolder: setFolder,
              onPassword: setPassword,
              onDelete: setDeleting,
            }}
          />
        </ListBody>
      </ListCard>
      <SftpCard serviceId={serviceId} canWrite={canWrite} />

      <FtpCreateModal
        opened={creating}
        onClose={closeCreate}
        serviceId={serviceId}
        domain={set.referencePunycode}
        allowed={canWrite}
      />
      <FtpFolderModal account={folder} onClose={closeFolder} serviceId={serviceId} allowed={canWrite} />
      <PasswordChangeModal
        subject={password ? { key: password.id, kind: t('ftp.account'), name: password.user } : null}
        allowed={canWrite}
        onClose={closePassword}
        onSubmit={async (value) => {
          if (!password) return undefined;
          return (await changePassword.mutateAsync({ accountId: password.id, password: value })).info;
        }}
        testIdPrefix="ftp"
      />
      <PasswordRevealModal
        opened={revealing !== null && revealShown}
        onClose={closeReveal}
        kind={t('ftp.account')}
        name={revealing?.user ?? ''}
        query={reveal}
        testId="ftp-reveal-modal"
      />
      <ConfirmModal
        opened={deleting !== null && deleteShown}
        title={t('ftp.delete_title')}
        message={t('ftp.delete_confirm', { name: deleting?.user ?? '' })}
        confirmLabel={t('ftp.delete')}
        busy={remove.isPending}
        onConfirm={runDelete}
        onClose={closeDelete}
        testId="ftp-delete-modal"
      />
    </ListPage>
  );
}
