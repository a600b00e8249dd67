import { Anchor, Card, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useFtpMain } from '../../../api/get-ftp-main';
import { CopyButton } from '../../../components/copy-button';
import { HostText } from '../../../components/host-text';
import { safeAction } from '../../../lib/signon-form';
import { useBrowserValue } from '../../../lib/use-browser-value';
import { useTranslation } from '../../../lib/use-translation';

function Value({ value, copyLabel }: { value: string; copyLabel: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <HostText ff="monospace" value={value} />
      <CopyButton value={value} label={copyLabel} />
    </Group>
  );
}

/** The page's address, which a WebFTP address relative to the panel is read against. */
const pageAddress = () => window.location.href;

/** Where FTP clients connect: host, SSL host, port, and the WebFTP's address. */
export function FtpServerCard({ serviceId }: { serviceId: number }) {
  const { t } = useTranslation();
  const query = useFtpMain(serviceId);
  const data = query.data;
  // none while the server draws the card: a relative WebFTP address shows once the app runs
  const base = useBrowserValue<string | undefined>(pageAddress, undefined);
  const webftp = data ? safeAction(data.webftp, base) : null;
  return (
    <Card withBorder padding="md" data-testid="ftp-server">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('ftp.server_title')}
        </Title>
        {data ? (
          <Table withRowBorders={false} verticalSpacing={4} data-testid="ftp-server-table">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th scope="row" w={200}>
                  {t('ftp.host')}
                </Table.Th>
                <Table.Td>
                  <Value value={data.host} copyLabel={t('ftp.copy_host')} />
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">{t('ftp.ssl_host')}</Table.Th>
                <Table.Td>
                  <Value value={data.sslHost} copyLabel={t('ftp.copy_ssl_host')} />
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">{t('ftp.port')}</Table.Th>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {data.port}
                  </Text>
                </Table.Td>
              </Table.Tr>
              {webftp ? (
                <Table.Tr>
                  <Table.Th scope="row">{t('ftp.webftp')}</Table.Th>
                  <Table.Td>
                    <Anchor href={webftp} target="_blank" rel="noopener noreferrer" size="sm">
                      <Group gap={4} component="span" wrap="nowrap">
                        {webftp}
                        <IconExternalLink size={14} aria-hidden />
                      </Group>
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              ) : null}
            </Table.Tbody>
          </Table>
        ) : query.isError ? (
          <Text size="sm" c="dimmed">
            {t('ftp.load_error')}
          </Text>
        ) : (
          <Stack gap="xs" role="status" aria-label={t('main.loading')}>
            <Skeleton height={24} />
            <Skeleton height={24} />
            <Skeleton height={24} />
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
