import { Button, Card, Group, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { isVisible } from '@panel247/contract/constants';
import type { HostingService } from '@panel247/contract/hosting';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { IconExternalLink } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useFtpMain } from '../../../api/get-ftp-main';
import { useWebftpLogin } from '../../../api/get-webftp-login';
import { useFtpAccounts } from '../../../api/use-ftp-accounts';
import { CopyButton } from '../../../components/copy-button';
import { formatBytes } from '../../../lib/format-bytes';
import { openSignon } from '../../../lib/open-signon';
import { formatPercent, usagePercent } from '../../../lib/usage-percent';
import { useTranslation } from '../../../lib/use-translation';
import { databaseHost } from '../lib/hosting-format';

function Usage({ used, limit, testId }: { used: number; limit: number; testId: string }) {
  const { t, i18n } = useTranslation();
  const percent = usagePercent(used, limit);
  const text =
    percent === null
      ? t('hosting.usage_no_limit', { used: formatBytes(used, i18n.language) })
      : t('hosting.usage', {
          used: formatBytes(used, i18n.language),
          limit: formatBytes(limit, i18n.language),
          percent: formatPercent(percent, i18n.language),
        });
  return (
    <Stack gap={4} data-testid={testId}>
      <Text size="sm">{text}</Text>
      {percent === null ? null : (
        <Progress value={Math.min(100, percent)} color={percent >= 90 ? 'red' : undefined} size="sm" aria-hidden />
      )}
    </Stack>
  );
}

function Host({ value, copyLabel, testId }: { value: string; copyLabel: string; testId: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }} data-testid={testId}>
        {value}
      </Text>
      <CopyButton value={value} label={copyLabel} />
    </Group>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th scope="row" w={220} style={{ verticalAlign: 'top' }}>
        {label}
      </Table.Th>
      <Table.Td>{children}</Table.Td>
    </Table.Tr>
  );
}

/**
 * Web resources: web space and database space (powers of 1024, spec units), the FTP server and a
 * WebFTP sign-on as the service's main FTP account (for those who see FTP), and the database server.
 */
export function WebResourcesCard({ set, service }: { set: PermissionSetData; service: HostingService }) {
  const { t } = useTranslation();
  const serviceId = set.id;
  const seesFtp = isVisible(set.permissions.service_ftp);
  const ftp = useFtpMain(serviceId, seesFtp);
  const accounts = useFtpAccounts(serviceId, seesFtp);
  const webftp = useWebftpLogin(serviceId);
  // The service's own account is the one that cannot be deleted.
  const main = accounts.data?.find((account) => !account.eliminable) ?? accounts.data?.[0] ?? null;
  const database = databaseHost(set.referencePunycode);
  return (
    <Card withBorder padding="md" data-testid="hosting-resources">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('hosting.resources_title')}
        </Title>
        <Table withRowBorders={false} verticalSpacing={6} data-testid="hosting-resources-table">
          <Table.Tbody>
            <Row label={t('hosting.web_space')}>
              <Usage
                used={service.usage.spaceWeb.used}
                limit={service.usage.spaceWeb.limit}
                testId="hosting-web-space"
              />
            </Row>
            {seesFtp ? (
              <Row label={t('hosting.ftp_server')}>
                {ftp.data ? (
                  <Host value={ftp.data.host} copyLabel={t('hosting.copy_ftp_server')} testId="hosting-ftp-host" />
                ) : (
                  <Text size="sm" c="dimmed">
                    {ftp.isError ? t('hosting.unavailable') : t('main.loading')}
                  </Text>
                )}
              </Row>
            ) : null}
            {seesFtp && main ? (
              <Row label={t('hosting.webftp')}>
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconExternalLink size={14} aria-hidden />}
                  loading={webftp.isPending}
                  onClick={() => openSignon(webftp.mutate, main.id)}
                  aria-label={t('hosting.webftp_open_as', { name: main.user })}
                  data-testid="hosting-webftp"
                >
                  {t('hosting.webftp_open')}
                </Button>
              </Row>
            ) : null}
            <Row label={t('hosting.database_space')}>
              <Usage
                used={service.usage.spaceBbdd.used}
                limit={service.usage.spaceBbdd.limit}
                testId="hosting-database-space"
              />
            </Row>
            <Row label={t('hosting.database_server')}>
              <Host value={database} copyLabel={t('hosting.copy_database_server')} testId="hosting-database-host" />
            </Row>
          </Table.Tbody>
        </Table>
      </Stack>
    </Card>
  );
}
