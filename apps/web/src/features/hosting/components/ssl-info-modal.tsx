import { Badge, Group, Table, Text } from '@mantine/core';
import type { Subdomain } from '@panel247/contract/hosting';
import { AppModal } from '../../../components/app-modal';
import { CopyButton } from '../../../components/copy-button';
import { formatEpoch } from '../../../lib/dates';
import { useTranslation } from '../../../lib/use-translation';
import { siteHost, sslState } from '../lib/hosting-rows';

/** What the panel knows of a site's certificate; the private key itself is never shown. */
export function SslInfoModal({ site, onClose }: { site: Subdomain | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const info = site?.ssl.info ?? null;
  const host = site ? siteHost(site.subdominio, site.referencePunycode) : '';
  const state = site ? sslState(site, Math.floor(Date.now() / 1000)) : 'off';
  return (
    <AppModal
      opened={site !== null}
      onClose={onClose}
      title={t('hosting.ssl_title', { name: host })}
      size="lg"
      data-testid="hosting-ssl-modal"
    >
      {info ? (
        <Table withRowBorders={false} verticalSpacing={4} data-testid="hosting-ssl-table">
          <Table.Tbody>
            <Table.Tr>
              <Table.Th scope="row" w={170}>
                {t('hosting.ssl')}
              </Table.Th>
              <Table.Td>
                <Badge variant="light" color={state === 'active' ? 'green' : state === 'off' ? 'gray' : 'red'}>
                  {t(`hosting.ssl_${state}`)}
                </Badge>
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row">{t('hosting.ssl_names')}</Table.Th>
              <Table.Td data-testid="hosting-ssl-names">{info.names.join(', ') || '—'}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row">{t('hosting.ssl_issuer')}</Table.Th>
              <Table.Td style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>{info.issuer}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row">{t('hosting.ssl_valid_from')}</Table.Th>
              <Table.Td>{formatEpoch(info.validFrom, i18n.language, 'day')}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row">{t('hosting.ssl_valid_to')}</Table.Th>
              <Table.Td data-testid="hosting-ssl-valid-to">{formatEpoch(info.validTo, i18n.language, 'day')}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row">{t('hosting.ssl_fingerprint')}</Table.Th>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                    {info.fingerprint}
                  </Text>
                  <CopyButton value={info.fingerprint} label={t('hosting.copy_fingerprint')} />
                </Group>
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row">{t('hosting.ssl_key')}</Table.Th>
              <Table.Td data-testid="hosting-ssl-key">
                {t(info.keyInstalled ? 'hosting.key_installed' : 'hosting.key_missing')}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      ) : (
        <Text c="dimmed" data-testid="hosting-ssl-none">
          {t('hosting.ssl_none')}
        </Text>
      )}
    </AppModal>
  );
}
