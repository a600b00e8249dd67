import { Alert } from '@mantine/core';
import type { Domain } from '@panel247/contract/domain';
import { IconTransferOut } from '@tabler/icons-react';
import { formatEpoch } from '../../../lib/dates';
import { useTranslation } from '../../../lib/use-translation';

/**
 * A transfer to another registrar the registry reported (its poll queue): while it waits, when
 * the registry acts and that the transfer lock cannot stop it any more; once done, that the
 * domain is the other registrar's and what is shown is the panel's last copy.
 */
export function TransferOutNotice({ transfer }: { transfer: NonNullable<Domain['transferOut']> }) {
  const { t, i18n } = useTranslation();
  const done = transfer.state !== 'pending';
  const values = {
    registrar: transfer.requestedBy,
    requested: formatEpoch(transfer.requestedAt, i18n.language, 'day'),
    action: formatEpoch(transfer.actionAt, i18n.language, 'day'),
  };
  return (
    <Alert
      color={done ? 'gray' : 'orange'}
      icon={<IconTransferOut size={18} aria-hidden />}
      title={t(done ? 'domain.transfer_out.done_title' : 'domain.transfer_out.pending_title')}
      data-testid="transfer-out-notice"
    >
      {t(done ? 'domain.transfer_out.done' : 'domain.transfer_out.pending', values)}
    </Alert>
  );
}
