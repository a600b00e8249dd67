import { SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { AppModal } from '../../../components/app-modal';
import { notifySuccess } from '../../../lib/notify';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';
import { useCreateAlias } from '../api/create-alias';
import { useCreateMailbox } from '../api/create-mailbox';
import { canCreate, canUseMode, initialCreateMode, type MailRights } from '../lib/mail-rights';
import { AliasForm } from './alias-form';
import { MailboxCreateForm } from './mailbox-create-form';

function CreateContent({
  serviceId,
  domain,
  rights,
  onClose,
}: {
  serviceId: number;
  domain: string;
  rights: MailRights;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  // mounted on each opening: alias mode for alias-only users, account mode otherwise
  const [mode, setMode] = useState(() => initialCreateMode(rights));
  const createMailbox = useCreateMailbox(serviceId);
  const createAlias = useCreateAlias(serviceId);
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Text id="mail-create-mode-label" size="sm" fw={500}>
          {t('mail.mode')}
        </Text>
        <SegmentedControl
          aria-labelledby="mail-create-mode-label"
          value={mode}
          onChange={(value) => {
            if (value === 'account' || value === 'alias') setMode(value);
          }}
          data={[
            { value: 'account', label: t('mail.mode_account'), disabled: !canUseMode(rights, 'account') },
            { value: 'alias', label: t('mail.mode_alias'), disabled: !canUseMode(rights, 'alias') },
          ]}
          data-testid="mail-create-mode"
        />
      </Stack>
      {mode === 'account' ? (
        <MailboxCreateForm
          domain={domain}
          submitting={createMailbox.isPending}
          onCancel={onClose}
          onSubmit={async (values) => {
            const { info } = await createMailbox.mutateAsync({
              name: values.name.trim(),
              password: values.password,
              quota: values.quota === '' ? undefined : Number(values.quota),
            });
            notifySuccess(info);
            onClose();
          }}
        />
      ) : (
        <AliasForm
          mode="create"
          domain={domain}
          initialTargets={['']}
          submitting={createAlias.isPending}
          onCancel={onClose}
          onSubmit={async (values) => {
            const { info } = await createAlias.mutateAsync({
              name: values.wholeDomain ? '' : values.name.trim(),
              target: values.targets.map((target) => target.trim()).filter((target) => target !== ''),
            });
            notifySuccess(info);
            onClose();
          }}
        />
      )}
    </Stack>
  );
}

/** Create an account or an alias; who may switch between them depends on the rights (spec section 2). */
export function MailCreateModal({
  opened,
  onClose,
  serviceId,
  domain,
  rights,
}: {
  opened: boolean;
  onClose: () => void;
  serviceId: number;
  domain: string;
  rights: MailRights;
}) {
  const { t } = useTranslation();
  const allowed = useRightGuard(opened, canCreate(rights), onClose);
  return (
    <AppModal
      opened={opened && allowed}
      onClose={onClose}
      title={t('mail.create_title')}
      size="lg"
      data-testid="mail-create-modal"
    >
      <CreateContent serviceId={serviceId} domain={domain} rights={rights} onClose={onClose} />
    </AppModal>
  );
}
