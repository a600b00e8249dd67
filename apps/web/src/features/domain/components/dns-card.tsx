import { ActionIcon, Badge, Card, Group, List, Menu, Skeleton, Stack, Text, Title } from '@mantine/core';
import { isActionable, isVisible } from '@panel247/contract/constants';
import type { CdsScan } from '@panel247/contract/dnssec';
import type { Domain } from '@panel247/contract/domain';
import { DNSSEC_ALGORITHMS, DNSSEC_DIGEST_TYPES } from '@panel247/contract/domain-rules';
import type { PermissionMap } from '@panel247/contract/permissions';
import { IconDotsVertical, IconEdit, IconKey, IconList, IconPlus, IconServer } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { HexGroups } from '../../../components/hex-text';
import { lazyDialog } from '../../../components/lazy-dialog';
import { formatEpoch } from '../../../lib/dates';
import { useTranslation } from '../../../lib/use-translation';
import { useCdsScan } from '../api/get-cds-scan';
import { useDnssecList } from '../api/list-dnssec';
import { useGlueRecords } from '../api/list-glue-records';
import { PreviewFieldset } from './preview-fieldset';

const DnssecCreateModal = lazyDialog(() => import('./dnssec-create-modal').then((m) => m.DnssecCreateModal), {
  opened: false,
});
const DnssecListModal = lazyDialog(() => import('./dnssec-list-modal').then((m) => m.DnssecListModal), {
  opened: false,
});
const GlueFormModal = lazyDialog(() => import('./glue-form-modal').then((m) => m.GlueFormModal), { opened: false });
const GlueListModal = lazyDialog(() => import('./glue-list-modal').then((m) => m.GlueListModal), { opened: false });
const NameserversEditModal = lazyDialog(() => import('./nameservers-edit-modal').then((m) => m.NameserversEditModal), {
  opened: false,
});

type Dialog = 'dns' | 'glue-create' | 'glue-list' | 'dnssec-create' | 'dnssec-list' | null;

export function DnsCard({ id, domain, permissions }: { id: number; domain: Domain; permissions: PermissionMap }) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = useCallback(() => setDialog(null), []);
  const glueVisible = isVisible(permissions.domain_gluerecords);
  const dnssecVisible = isVisible(permissions.domain_dnssec);
  const canDns = isActionable(permissions.domain_dns);
  const canGlue = isActionable(permissions.domain_gluerecords);
  const canDnssec = isActionable(permissions.domain_dnssec);
  const glue = useGlueRecords(id, glueVisible);
  const dnssec = useDnssecList(id, dnssecVisible);
  // The CDS scan only looks at domains on their own name servers (the zone hosted elsewhere).
  const scan = useCdsScan(id, dnssecVisible && domain.dns.mode === 'setDNS');
  const hasMenu = canDns || canGlue || canDnssec;

  return (
    <Card withBorder padding="lg" data-testid="dns-card">
      <Group justify="space-between" wrap="nowrap" mb="xs">
        <Title order={2} size="h4">
          {t('domain.dns.title')}
        </Title>
        {hasMenu ? (
          <Menu position="bottom-end" withArrow shadow="md">
            <Menu.Target>
              <ActionIcon variant="subtle" aria-label={t('domain.dns.menu')} data-testid="dns-menu">
                <IconDotsVertical size={18} aria-hidden />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              {canDns ? (
                <Menu.Item
                  leftSection={<IconEdit size={16} aria-hidden />}
                  onClick={() => setDialog('dns')}
                  data-testid="dns-menu-edit"
                >
                  {t('domain.dns.edit')}
                </Menu.Item>
              ) : null}
              {canGlue ? (
                <>
                  <Menu.Item
                    leftSection={<IconPlus size={16} aria-hidden />}
                    onClick={() => setDialog('glue-create')}
                    data-testid="dns-menu-glue-create"
                  >
                    {t('domain.glue.create')}
                  </Menu.Item>
                  <Menu.Item
                    leftSection={<IconList size={16} aria-hidden />}
                    onClick={() => setDialog('glue-list')}
                    data-testid="dns-menu-glue-list"
                  >
                    {t('domain.glue.manage')}
                  </Menu.Item>
                </>
              ) : null}
              {canDnssec ? (
                <>
                  <Menu.Item
                    leftSection={<IconKey size={16} aria-hidden />}
                    onClick={() => setDialog('dnssec-create')}
                    data-testid="dns-menu-dnssec-create"
                  >
                    {t('domain.dnssec.create')}
                  </Menu.Item>
                  <Menu.Item
                    leftSection={<IconList size={16} aria-hidden />}
                    onClick={() => setDialog('dnssec-list')}
                    data-testid="dns-menu-dnssec-list"
                  >
                    {t('domain.dnssec.manage')}
                  </Menu.Item>
                </>
              ) : null}
            </Menu.Dropdown>
          </Menu>
        ) : null}
      </Group>
      <Stack gap="sm">
        <div>
          <Group gap="xs" mb={4}>
            <Text size="sm" fw={500} id="dns-servers-label">
              {t('domain.dns.servers')}
            </Text>
            <Badge variant="light" size="sm" data-testid="dns-mode">
              {t(`domain.dns.mode_${domain.dns.mode}`)}
            </Badge>
          </Group>
          {domain.dns.servers.length > 0 ? (
            <List
              size="sm"
              spacing={2}
              icon={<IconServer size={14} aria-hidden />}
              aria-labelledby="dns-servers-label"
              data-testid="dns-servers"
            >
              {domain.dns.servers.map((server) => (
                <List.Item key={server} style={{ overflowWrap: 'anywhere' }}>
                  {server}
                </List.Item>
              ))}
            </List>
          ) : (
            <Text size="sm" c="dimmed" data-testid="dns-servers">
              {t('domain.dns.no_servers')}
            </Text>
          )}
        </div>
        {glueVisible ? (
          <PreviewFieldset
            legend={t('domain.glue.title')}
            items={glue.data ?? []}
            loading={glue.isPending}
            empty={t('domain.glue.empty')}
            itemKey={(record) => record.id}
            testId="glue-preview"
            render={(record) => (
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                <Text span fw={500}>
                  {record.name}
                </Text>{' '}
                {record.ip}
                {record.ipv6 ? ` · ${record.ipv6}` : ''}
              </Text>
            )}
          />
        ) : null}
        {dnssecVisible ? (
          <PreviewFieldset
            legend={t('domain.dnssec.title')}
            items={dnssec.data ?? []}
            loading={dnssec.isPending}
            empty={t('domain.dnssec.empty')}
            itemKey={(entry) => entry.id}
            testId="dnssec-preview"
            render={(entry) => (
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                <Text span fw={500}>
                  {t('domain.dnssec.keytag')} {entry.keytag}
                </Text>{' '}
                · {DNSSEC_ALGORITHMS[entry.algorithm] ?? entry.algorithm} ·{' '}
                {DNSSEC_DIGEST_TYPES[entry.digesttype] ?? entry.digesttype}
                <Text span ff="monospace" size="xs" display="block" c="dimmed">
                  <HexGroups value={entry.digest} />
                </Text>
              </Text>
            )}
          />
        ) : null}
        {dnssecVisible && domain.dns.mode === 'setDNS' ? (
          <CdsScanLine scan={scan.data} loading={scan.isPending} />
        ) : null}
      </Stack>
      <NameserversEditModal id={id} domain={domain} opened={dialog === 'dns'} allowed={canDns} onClose={close} />
      <GlueFormModal
        id={id}
        domainName={domain.name}
        record={null}
        opened={dialog === 'glue-create'}
        allowed={canGlue}
        onClose={close}
      />
      <GlueListModal
        id={id}
        domainName={domain.name}
        opened={dialog === 'glue-list'}
        allowed={canGlue}
        onClose={close}
      />
      <DnssecCreateModal id={id} opened={dialog === 'dnssec-create'} allowed={canDnssec} onClose={close} />
      <DnssecListModal id={id} opened={dialog === 'dnssec-list'} allowed={canDnssec} onClose={close} />
    </Card>
  );
}

/** The last CDS/CDNSKEY scan of a domain hosted elsewhere: what it did, when, and why when it did nothing. */
function CdsScanLine({ scan, loading }: { scan: CdsScan | null | undefined; loading: boolean }) {
  const { t, i18n } = useTranslation();
  if (loading) return <Skeleton height={20} aria-label={t('domain.dnssec.scan_title')} />;
  const when = scan ? formatEpoch(scan.checkedAt, i18n.language) : '';
  return (
    <div data-testid="cds-scan">
      <Text size="sm" fw={500}>
        {t('domain.dnssec.scan_title')}
      </Text>
      {scan ? (
        <Stack gap={2}>
          <Group gap="xs" wrap="wrap">
            <Badge
              size="sm"
              variant="light"
              color={scan.outcome === 'failed' || scan.outcome === 'refused' ? 'red' : 'teal'}
              data-outcome={scan.outcome}
            >
              {t(`domain.dnssec.scan_${scan.outcome}`)}
            </Badge>
            <Text size="sm">{when}</Text>
          </Group>
          {scan.detail && (scan.outcome === 'failed' || scan.outcome === 'refused') ? (
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {scan.detail}
            </Text>
          ) : null}
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          {t('domain.dnssec.scan_never')}
        </Text>
      )}
    </div>
  );
}
