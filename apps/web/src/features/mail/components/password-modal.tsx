import { PasswordChangeModal } from '../../../components/password-change-modal';
import { useTranslation } from '../../../lib/use-translation';
import { useChangeMailboxPassword } from '../api/change-mailbox-password';
import type { AccountDialogProps } from '../lib/mail-rows';

/** Change an account's password (needs the account right). */
export function PasswordModal({ row, onClose, serviceId, allowed }: AccountDialogProps) {
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
