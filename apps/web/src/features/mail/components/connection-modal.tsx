import { Group, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal';
import { CopyButton } from '../../../components/copy-button';
import { notifyError } from '../../../lib/notify';
import { useRightGuard } from '../../../lib/use-right-guard';
import { type ConnectionHosts, useConnectionData } from '../api/get-connection-data';

const SERVICES: (keyof ConnectionHosts)[] = ['imap', 'smtp', 'ftp', 'bbdd'];

function Host({ value, label }: { value: string; label: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
      <CopyButton value={value} label={label} />
    </Group>
  );
}

/** Servers for mail clients: without SSL (prefix + the reference domain) and with SSL (provider hosts). */
export function ConnectionModal({
  opened,
  onClose,
  serviceId,
  allowed,
}: {
  opened: boolean;
  onClose: () => void;
  serviceId: number;
  allowed: boolean;
}) {
  const { t } = useTranslation();
  const shown = useRightGuard(opened, allowed, onClose);
  const query = useConnectionData(serviceId, opened && allowed);
  const error = query.error;
  useEffect(() => {
    if (error) notifyError(error);
  }, [error]);
  const data = query.data;
  return (
    <AppModal
      opened={opened && shown}
      onClose={onClose}
      title={t('mail.connection')}
      size="lg"
      data-testid="mail-connection-modal"
    >
      <Stack gap="md">
        {data ? (
          <Table.ScrollContainer minWidth={480}>
            <Table withTableBorder verticalSpacing="xs" data-testid="mail-connection-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('mail.service')}</Table.Th>
                  <Table.Th scope="col">{t('mail.connection_plain')}</Table.Th>
                  <Table.Th scope="col">{t('mail.connection_ssl')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {SERVICES.map((service) => {
                  const name = t(`mail.service_${service}`);
                  return (
                    <Table.Tr key={service} data-service={service}>
                      <Table.Th scope="row">{name}</Table.Th>
                      <Table.Td>
                        <Host
                          value={data.plain[service]}
                          label={t('mail.copy_host', { service: name, kind: t('mail.connection_plain') })}
                        />
                      </Table.Td>
                      <Table.Td>
                        <Host
                          value={data.ssl[service]}
                          label={t('mail.copy_host', { service: name, kind: t('mail.connection_ssl') })}
                        />
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : query.isError ? (
          <Text size="sm" c="dimmed">
            {t('mail.load_error')}
          </Text>
        ) : (
          <Stack gap="xs" role="status" aria-label={t('main.loading')}>
            <Skeleton height={28} />
            <Skeleton height={28} />
            <Skeleton height={28} />
          </Stack>
        )}
      </Stack>
    </AppModal>
  );
}
