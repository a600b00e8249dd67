import { Code, Group, Loader, Text } from '@mantine/core';
import { useEffect } from 'react';
import { AppModal } from '../../../components/app-modal';
import { CopyButton } from '../../../components/copy-button';
import { useTranslation } from '../../../lib/use-translation';
import { useAuthCode } from '../api/get-auth-code';
import { useTransferKey } from '../api/get-transfer-key';
import { useActionError, useActionGuard } from '../lib/use-action-guard';

/** The auth code (or transfer key), read on opening, with a copy button. Needs domain_authcode visibility. */
export function SecretModal({
  id,
  kind,
  title,
  opened,
  allowed,
  onClose,
}: {
  id: number;
  kind: 'authcode' | 'transferkey';
  title: string;
  opened: boolean;
  allowed: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const ok = useActionGuard(opened, allowed, onClose);
  const authCode = useAuthCode(id, opened && ok && kind === 'authcode');
  const transferKey = useTransferKey(id, opened && ok && kind === 'transferkey');
  const query = kind === 'authcode' ? authCode : transferKey;
  const onError = useActionError();
  const { error } = query;
  useEffect(() => {
    if (opened && error) onError(error, onClose);
  }, [opened, error, onError, onClose]);

  return (
    <AppModal opened={opened && ok} onClose={onClose} title={title} data-testid="secret-modal">
      {query.isPending ? (
        <Loader size="sm" role="status" aria-label={t('main.loading')} />
      ) : query.isError ? (
        <Text c="red" size="sm" role="alert">
          {t('domain.load_failed')}
        </Text>
      ) : (
        <Group gap="xs" wrap="nowrap" align="center">
          <Code fz="md" style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }} data-testid="secret-value">
            {query.data}
          </Code>
          <CopyButton value={query.data ?? ''} />
        </Group>
      )}
    </AppModal>
  );
}
