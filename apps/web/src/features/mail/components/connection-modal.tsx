import { Divider, Group, Skeleton, Stack, Table, Text } from '@mantine/core';
import type { ConnectionData } from '@panel247/contract/mail';
import { useEffect } from 'react';
import { AppModal } from '../../../components/app-modal';
import { CopyButton } from '../../../components/copy-button';
import { HostText } from '../../../components/host-text';
import { notifyError } from '../../../lib/notify';
import { usePhone } from '../../../lib/use-phone';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';
import { type ConnectionHosts, useConnectionData } from '../api/get-connection-data';
import { AppleProfileSection } from './apple-profile-section';

const SERVICES: (keyof ConnectionHosts)[] = ['imap', 'smtp', 'ftp', 'bbdd'];

function Host({ value, label }: { value: string; label: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <HostText ff="monospace" value={value} />
      <CopyButton value={value} label={label} />
    </Group>
  );
}

/** The mail services' ports under the hosts (FTP's is on the FTP view; databases take no mail client). */
function ConnectionPorts({ data }: { data: ConnectionData }) {
  const { t } = useTranslation();
  const { imap, smtp } = data.ports;
  return (
    <Text size="sm" data-testid="mail-connection-ports">
      {t('mail.ports', { imapPlain: imap.plain, imapSsl: imap.ssl, smtpPlain: smtp.plain, smtpSsl: smtp.ssl })}
    </Text>
  );
}

function useCopyLabel() {
  const { t } = useTranslation();
  return (name: string, kind: 'plain' | 'ssl') =>
    t('mail.copy_host', { service: name, kind: t(kind === 'plain' ? 'mail.connection_plain' : 'mail.connection_ssl') });
}

/** Services as rows, without and with SSL as columns (wider screens). */
function ConnectionTable({ data }: { data: ConnectionData }) {
  const { t } = useTranslation();
  const copyLabel = useCopyLabel();
  return (
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
                <Host value={data.plain[service]} label={copyLabel(name, 'plain')} />
              </Table.Td>
              <Table.Td>
                <Host value={data.ssl[service]} label={copyLabel(name, 'ssl')} />
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

/** On a phone three columns do not fit: each service is a heading with its two hosts under it. */
function ConnectionList({ data }: { data: ConnectionData }) {
  const { t } = useTranslation();
  const copyLabel = useCopyLabel();
  return (
    <Stack gap="sm" data-testid="mail-connection-table" data-layout="stacked">
      {SERVICES.map((service) => {
        const name = t(`mail.service_${service}`);
        return (
          <Stack key={service} gap={2} data-service={service}>
            <Text fw={600} size="sm" component="h3" m={0}>
              {name}
            </Text>
            <Text size="xs" c="dimmed">
              {t('mail.connection_plain')}
            </Text>
            <Host value={data.plain[service]} label={copyLabel(name, 'plain')} />
            <Text size="xs" c="dimmed">
              {t('mail.connection_ssl')}
            </Text>
            <Host value={data.ssl[service]} label={copyLabel(name, 'ssl')} />
          </Stack>
        );
      })}
    </Stack>
  );
}

/** Servers for mail clients: without SSL (prefix + the reference domain) and with SSL (provider hosts). */
export function ConnectionModal({
  opened,
  onClose,
  serviceId,
  domain,
  allowed,
  profiles,
}: {
  opened: boolean;
  onClose: () => void;
  serviceId: number;
  domain: string;
  allowed: boolean;
  /** servicemail_accounts visible: a mailbox's .mobileconfig may be downloaded. */
  profiles: boolean;
}) {
  const { t } = useTranslation();
  const shown = useRightGuard(opened, allowed, onClose);
  const query = useConnectionData(serviceId, opened && allowed);
  const error = query.error;
  useEffect(() => {
    if (error) notifyError(error);
  }, [error]);
  const data = query.data;
  const phone = usePhone();
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
          <>
            {phone ? <ConnectionList data={data} /> : <ConnectionTable data={data} />}
            <ConnectionPorts data={data} />
          </>
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
        {profiles ? (
          <>
            <Divider />
            <AppleProfileSection serviceId={serviceId} domain={domain} />
          </>
        ) : null}
      </Stack>
    </AppModal>
  );
}
