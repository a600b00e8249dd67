import type { FtpAccount } from '@panel247/contract/ftp';
import { IconExternalLink, IconEye, IconFolder, IconKey, IconTrash } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { HostText } from '../../../components/host-text';
import { ListTable } from '../../../components/list-table';
import { rowActionsColumn } from '../../../components/row-actions';
import { useTranslation } from '../../../lib/use-translation';
import { folderLabel } from '../lib/ftp-rules';

export interface FtpRowActions {
  onWebftp: (account: FtpAccount) => void;
  onShowPassword: (account: FtpAccount) => void;
  onFolder: (account: FtpAccount) => void;
  onPassword: (account: FtpAccount) => void;
  onDelete: (account: FtpAccount) => void;
}

/**
 * The FTP accounts: login, folder and the actions. WebFTP and "show password" are shown to everyone
 * who sees the accounts (spec section 6), but answer 'no permission' without the FTP right, which
 * folder, password and delete need too.
 */
export function FtpTable({
  accounts,
  canWrite,
  emptyText,
  busy,
  webftpPending,
  actions,
}: {
  accounts: FtpAccount[];
  canWrite: boolean;
  emptyText: string;
  busy: boolean;
  webftpPending: number | null;
  actions: FtpRowActions;
}) {
  const { t } = useTranslation();
  const columns: DataTableColumn<FtpAccount>[] = [
    {
      accessor: 'user',
      title: t('ftp.user'),
      render: (account) => <HostText fw={500} value={account.user} />,
    },
    {
      accessor: 'directorio',
      title: t('ftp.folder'),
      render: (account) => <HostText ff="monospace" value={folderLabel(account.directorio)} testId="ftp-folder" />,
    },
    rowActionsColumn(t('ftp.actions'), (account) => {
      const name = account.user;
      return [
        {
          label: t('ftp.webftp_item', { name }),
          testId: 'ftp-webftp',
          icon: <IconExternalLink size={16} aria-hidden />,
          loading: webftpPending === account.id,
          onClick: () => actions.onWebftp(account),
        },
        {
          label: t('ftp.show_password_item', { name }),
          testId: 'ftp-show-password',
          icon: <IconEye size={16} aria-hidden />,
          onClick: () => actions.onShowPassword(account),
        },
        canWrite && {
          label: t('ftp.folder_item', { name }),
          testId: 'ftp-edit-folder',
          icon: <IconFolder size={16} aria-hidden />,
          onClick: () => actions.onFolder(account),
        },
        canWrite && {
          label: t('ftp.password_item', { name }),
          testId: 'ftp-password',
          icon: <IconKey size={16} aria-hidden />,
          onClick: () => actions.onPassword(account),
        },
        canWrite &&
          account.eliminable && {
            label: t('ftp.delete_item', { name }),
            testId: 'ftp-delete',
            color: 'red',
            icon: <IconTrash size={16} aria-hidden />,
            onClick: () => actions.onDelete(account),
          },
      ];
    }),
  ];
  return (
    <ListTable
      testId="ftp-list"
      busy={busy}
      records={accounts}
      columns={columns}
      emptyText={emptyText}
      rowAttributes={(account) => ({ 'data-name': account.user })}
    />
  );
}
