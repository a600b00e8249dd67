import { AppModal } from '../../../components/app-modal';
import { notifySuccess } from '../../../lib/notify';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';
import { useSaveAlias } from '../api/save-alias';
import type { MailRow } from '../lib/mail-rows';
import { targetRowsFrom } from '../lib/target-rows';
import { AliasForm } from './alias-form';

type AliasRow = Extract<MailRow, { type: 'alias' }>;

/** Edit an alias's targets (needs the alias right). */
export function AliasEditModal({
  row,
  onClose,
  serviceId,
  allowed,
}: {
  row: AliasRow | null;
  onClose: () => void;
  serviceId: number;
  allowed: boolean;
}) {
  const { t } = useTranslation();
  const save = useSaveAlias(serviceId);
  const shown = useRightGuard(row !== null, allowed, onClose);
  return (
    <AppModal
      opened={row !== null && shown}
      onClose={onClose}
      title={t('mail.edit_title')}
      size="lg"
      data-testid="mail-edit-modal"
    >
      {row ? (
        <AliasForm
          key={row.key}
          mode="edit"
          domain={row.alias.referencePunycode}
          aliasName={row.name}
          initialTargets={targetRowsFrom(row.alias.name)}
          submitting={save.isPending}
          onCancel={onClose}
          onSubmit={async (values) => {
            const { info } = await save.mutateAsync({
              aliasId: row.alias.id,
              targets: values.targets.map((target) => target.trim()).filter((target) => target !== ''),
            });
            notifySuccess(info);
            onClose();
          }}
        />
      ) : null}
    </AppModal>
  );
}
