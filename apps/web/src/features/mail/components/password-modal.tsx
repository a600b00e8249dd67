import { useTranslation } from 'react-i18next';
import { PasswordChangeModal } from '../../../components/password-change-modal';
import { useChangeMailboxPassword } from '../api/change-mailbox-password';
import type { MailRow } from '../lib/mail-rows';

type AccountRow = Extract<MailRow, { type: 'account' }>;

/** Change an account's password (needs the account right). */
export function PasswordModal({
  row,
  onClose,
  serviceId,
  allowed,
}: {
  row: AccountRow | null;
  onClose: () => void;
  serviceId: number;
  allowed: boolean;
}) {
  const { t } = useTranslation();
  const change = useChangeMailboxPassword(serviceId);
  return (
    <PasswordChangeModal
      subject={row ? { key: row.key, kind: t('mail.account'), name: row.name } : null}
      allowed={allowed}
      onClose={onClose}
      onSubmit={async (password) => {
        if (!row) return undefined;
        return (await change.mutateAsync({ accountId: row.mailbox.id, password })).info;
      }}
      testIdPrefix="mail"
    />
  );
}
