import { Button, Group, Stack, Table, Text } from '@mantine/core';
import type { SshKey } from '@panel247/contract/sftp-keys';
import { IconKey } from '@tabler/icons-react';
import { useId } from 'react';
import { useSftpMain } from '../../../api/get-ftp-main';
import { ConfirmModal } from '../../../components/confirm-modal';
import { CopyButton } from '../../../components/copy-button';
import { HostText } from '../../../components/host-text';
import { lazyDialog } from '../../../components/lazy-dialog';
import { ListCard } from '../../../components/list-page';
import { ListSkeleton } from '../../../components/list-skeleton';
import { notifyCall } from '../../../lib/notify';
import { useDialog } from '../../../lib/use-dialog';
import { useErrorToast } from '../../../lib/use-error-toast';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';
import { useRemoveSftpKey, useSftpKeys } from '../api/sftp-keys';
import { keyLimitReached } from '../lib/sftp-key-form';
import { SftpKeysTable } from './sftp-keys-table';

// loaded when first opened: the FTP page's first visit does not carry the form
const SftpKeyModal = lazyDialog(() => import('./sftp-key-modal').then((m) => m.SftpKeyModal), { opened: false });

/** Where SFTP clients connect (the FTP server's host, its own port), and the service's own login. */
function SftpConnection({ serviceId }: { serviceId: number }) {
  const { t } = useTranslation();
  const main = useSftpMain(serviceId);
  if (!main.data) return <ListSkeleton testId="sftp-connection-skeleton" rows={2} />;
  const { host, port, login } = main.data;
  return (
    <Table withRowBorders={false} verticalSpacing={4} data-testid="sftp-connection">
      <Table.Tbody>
        <Table.Tr>
          <Table.Th scope="row" w={200}>
            {t('ftp.host')}
          </Table.Th>
          <Table.Td>
            <Group gap={4} wrap="nowrap">
              <HostText ff="monospace" value={host} />
              <CopyButton value={host} label={t('sftp.copy_host')} />
            </Group>
          </Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th scope="row">{t('ftp.port')}</Table.Th>
          <Table.Td>
            <Text size="sm" ff="monospace" data-testid="sftp-port">
              {port}
            </Text>
          </Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th scope="row">{t('sftp.service_login')}</Table.Th>
          <Table.Td>
            {login ? (
              <Stack gap={2}>
                <Group gap={4} wrap="nowrap">
                  <Text size="sm" ff="monospace" data-testid="sftp-service-login">
                    {login}
                  </Text>
                  <CopyButton value={login} label={t('sftp.copy_login')} />
                </Group>
                <Text size="xs" c="dimmed">
                  {t('sftp.service_login_hint')}
                </Text>
              </Stack>
            ) : (
              <Text size="sm" c="dimmed" data-testid="sftp-service-login-none">
                {t('sftp.service_login_none')}
              </Text>
            )}
          </Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}

/**
 * SFTP beside FTP (beyond the spec): how to connect, and the SSH keys that open the service's own
 * login or an FTP account. FTP accounts also log in over SFTP with their passwords. Everyone who
 * sees the FTP accounts sees the keys; adding and removing them needs the FTP right.
 */
export function SftpCard({ serviceId, canWrite }: { serviceId: number; canWrite: boolean }) {
  const { t } = useTranslation();
  const keys = useSftpKeys(serviceId);
  useErrorToast(keys.error);
  const main = useSftpMain(serviceId);
  const list = keys.data?.keys ?? [];
  const full = keys.data ? keyLimitReached(list.length, keys.data.maxKeys) : false;
  const limitHintId = useId();
  const [adding, setAdding, closeAdd] = useDialog(false);
  const [removing, setRemoving, closeRemove] = useDialog<SshKey | null>(null);
  const removeShown = useRightGuard(removing !== null, canWrite, closeRemove);
  const remove = useRemoveSftpKey(serviceId);
  const runRemove = async () => {
    if (removing) await notifyCall(() => remove.mutateAsync(removing.id), closeRemove);
  };
  const usage =
    keys.data &&
    (keys.data.maxKeys === null
      ? t('sftp.usage_unlimited', { used: list.length })
      : t('sftp.usage', { used: list.length, limit: keys.data.maxKeys }));
  return (
    <ListCard
      title={t('sftp.title')}
      subtitle={
        <Text size="sm" c="dimmed" data-testid="sftp-intro">
          {t('sftp.intro')} {usage}
        </Text>
      }
      actions={
        canWrite ? (
          <Group gap="sm" wrap="wrap" justify="flex-end">
            {full ? (
              <Text size="sm" c="dimmed" id={limitHintId} data-testid="sftp-limit-hint">
                {t('sftp.limit_reached', { limit: keys.data?.maxKeys })}
              </Text>
            ) : null}
            <Button
              leftSection={<IconKey size={16} aria-hidden />}
              onClick={() => setAdding(true)}
              disabled={!keys.data || !main.data || full}
              aria-describedby={full ? limitHintId : undefined}
              data-testid="sftp-key-add"
            >
              {t('sftp.add')}
            </Button>
          </Group>
        ) : null
      }
    >
      <SftpConnection serviceId={serviceId} />
      {keys.isPending ? (
        <ListSkeleton testId="sftp-keys-skeleton" rows={2} />
      ) : (
        <SftpKeysTable
          keys={list}
          canWrite={canWrite}
          emptyText={keys.isError ? t('ftp.load_error') : t('sftp.empty')}
          busy={keys.isFetching}
          onRemove={setRemoving}
        />
      )}
      <SftpKeyModal
        opened={adding}
        onClose={closeAdd}
        serviceId={serviceId}
        serviceLogin={main.data?.login ?? null}
        allowed={canWrite && !full}
      />
      <ConfirmModal
        opened={removing !== null && removeShown}
        title={t('sftp.remove_title')}
        message={t('sftp.remove_confirm', { name: removing?.name ?? '', login: removing?.login ?? '' })}
        confirmLabel={t('sftp.remove')}
        busy={remove.isPending}
        onConfirm={runRemove}
        onClose={closeRemove}
        testId="sftp-remove-modal"
      />
    </ListCard>
  );
}
